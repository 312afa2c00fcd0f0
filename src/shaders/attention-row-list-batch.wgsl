// Row statistics of a whole batch of variants on a list of query rows, in two dispatches (the analysis
// backend's rowStats; src/gpu/attention-row-list-batch.ts). A slot is one feature pair: slots 0 … V−1 the
// variants' φ(Q), φ(K), slot V the exact Q, K. For the R listed rows r_t = rowList[t] and keys j < n:
//
//   rowDots    dots[v][t][j] = a_v(r_t) · b_v(j)   (a = φ(q) or q, b = φ(k) or k; every slot, one dispatch;
//              rowDotsThin the same for a row list of at most 2 rows)
//   rowReduce  per variant v < V and row t, with s_j = scale·dots[V][t][j], g_j = dots[v][t][j], allowed
//              keys j < n (causal: j ≤ r_t): M = max s, S = Σ exp(s − M), D = Σ g, A_j = exp(s_j − M)/S,
//              Â_j = g_j / D (0 when D = 0), log A_j = s_j − M − log S, and
//              out[(5v + k)·R + t], k = 0 … 4:  H(A_r) = −Σ_{A>0} A log A,  H(Â_r) = −Σ_{Â>0} Â log Â,
//              Σ (A − Â)²,  Σ A²,  KL(A_r ‖ Â_r) = Σ_{A>0} A (log A − log max(Â, 1e-30));
//              with p.full = 1 also the rows: out[p.fullBase + (s·R + t)·n + j], s = 0 the exact A (v = 0
//              writes it), s = v + 1 Â of variant v (0 at keys a causal row may not see).
//              (the formulas of attention-row-reduce.wgsl statsAdd; CPU twin core/analysis-backend.ts
//              rowListStats on exactRowsOf / approxRowsOf)
//
// Layout: feats (vec4 rows, all slots packed): slot v's table entry (qOff, kOff, m4, qFull) — a's row t at
// qOff + (qFull ? r_t : t)·m4, b's key j at kOff + j·m4, m4 vec4s per row (zero-padded). dots: slot-major,
// row t of slot v at (v·R + t)·p.ns vec4s, p.ns = 2⌈n/8⌉ (keys padded to a multiple of 8, never read past n).
// Keys of a slot flagged `scaled` (table w bit 1; φ from attention-row-list-features.wgsl) carry a log-scale:
// g_j = g̃_j·exp(kscale[v][j] − C) with C the running max over the row's keys (a scalar factor cancels in Â).
// Bindings: 0 params, 1 feats, 2 table (vec4u per slot; w: bit 0 qFull, bit 1 scaled), 3 row list (R u32),
// 4 dots, 5 out (f32), 6 kscale (p.ns vec4s per variant).
//
// rowDots thread mapping: one invocation holds a register block of 8 rows × 8 keys (16 vec4 accumulators,
// one per key and 4 rows: 16 vec4 loads per 64 vec4 dots; SwiftShader pays per storage load, not per
// FLOP). Block b of a slot: key block b % K8 (K8 = ⌈n/8⌉), row block b / K8; causal blocks whose first key
// is past the block's last row are skipped (rowReduce never reads them). Dispatch: (⌈⌈R/8⌉·K8 / 64⌉, V + 1),
// workgroup y = slot (uniform m4 per workgroup).
// rowDotsThin (a short row list, R ≤ 2 — the map rows' one row): one invocation per (listed row t, key
// block of 8), the same dots without the 8-row block, whose clamped duplicate rows would be 7/8 of the
// work at R = 1: 9 vec4 loads per 8 vec4 dots, sums in the same order. Dispatch: (⌈R·K8 / 64⌉, V + 1).
// rowReduce thread mapping: one invocation per (variant v, row t), index v·R + t, sweeping the row's vec4 key
// groups in order twice (normalizers, then statistics): no workgroup memory or barriers, which cost
// SwiftShader far more than the few loads of a row; workgroups of 16, so that the few long rows of a large n
// still spread over threads. Sums in key order (deterministic). Dispatch: ⌈V·R / 16⌉.

struct Params {
  n: u32,
  causal: u32,
  rowCount: u32, // R
  variants: u32, // V (slot V is the exact one)
  ns: u32,       // vec4s per dots row: 2⌈n/8⌉
  k8: u32,       // key blocks of 8: ⌈n/8⌉
  full: u32,     // 1: also write the rows
  fullBase: u32, // first float of the rows in out
  scale: f32,    // 1/√d
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> feats: array<vec4f>;
@group(0) @binding(2) var<storage, read> table: array<vec4u>;
@group(0) @binding(3) var<storage, read> rowList: array<u32>;
@group(0) @binding(4) var<storage, read_write> dots: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> outBuf: array<f32>;
@group(0) @binding(6) var<storage, read> kscale: array<vec4f>;

const WG: u32 = 64u;
// rowReduce: small workgroups, so that few long rows (large n, few variants) still spread over threads
const RWG: u32 = 16u;
const NEG: f32 = -3.0e38; // stands in for −∞
const KL_FLOOR: f32 = 1e-30;

/// feats offsets of keys j0 … j0+7 of a slot whose keys start at kOff: a ragged last block reads key
/// n − 1 again (its dots are never read), never past n.
struct KeyBlock {
  lo: vec4u,
  hi: vec4u,
}

fn keyBlock(kOff: u32, j0: u32, n: u32, m4: u32) -> KeyBlock {
  let last = vec4u(n - 1u);
  let j = vec4u(j0) + vec4u(0u, 1u, 2u, 3u);
  return KeyBlock(vec4u(kOff) + min(j, last) * m4, vec4u(kOff) + min(j + vec4u(4u), last) * m4);
}

@compute @workgroup_size(WG)
fn rowDots(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let slot = wid.y;
  let b = wid.x * WG + lid;
  let rb = b / p.k8;
  let R = p.rowCount;
  if (8u * rb >= R) { return; }
  let kb = b - rb * p.k8;
  let t0 = 8u * rb;
  let j0 = 8u * kb;
  let lastRow = rowList[min(t0 + 7u, R - 1u)];
  if (p.causal != 0u && j0 > lastRow) { return; }
  let e = table[slot];
  let m4 = e.z;
  // a's 8 rows of the block (clamped to the last listed row) and the 8 keys (clamped to n − 1)
  var ra = min(vec4u(t0) + vec4u(0u, 1u, 2u, 3u), vec4u(R - 1u));
  var rb4 = min(vec4u(t0) + vec4u(4u, 5u, 6u, 7u), vec4u(R - 1u));
  if ((e.w & 1u) != 0u) {
    ra = vec4u(rowList[ra.x], rowList[ra.y], rowList[ra.z], rowList[ra.w]);
    rb4 = vec4u(rowList[rb4.x], rowList[rb4.y], rowList[rb4.z], rowList[rb4.w]);
  }
  let qa = vec4u(e.x) + ra * m4;
  let qb = vec4u(e.x) + rb4 * m4;
  let keys = keyBlock(e.y, j0, p.n, m4);
  // named accumulators, not an array indexed by the loop (SwiftShader keeps such arrays in memory):
  // cX = key X against rows 0–3, dX = key X against rows 4–7
  var c0 = vec4f(0.0);
  var c1 = vec4f(0.0);
  var c2 = vec4f(0.0);
  var c3 = vec4f(0.0);
  var c4 = vec4f(0.0);
  var c5 = vec4f(0.0);
  var c6 = vec4f(0.0);
  var c7 = vec4f(0.0);
  var d0 = vec4f(0.0);
  var d1 = vec4f(0.0);
  var d2 = vec4f(0.0);
  var d3 = vec4f(0.0);
  var d4 = vec4f(0.0);
  var d5 = vec4f(0.0);
  var d6 = vec4f(0.0);
  var d7 = vec4f(0.0);
  for (var c = 0u; c < m4; c++) {
    let a0 = feats[qa.x + c];
    let a1 = feats[qa.y + c];
    let a2 = feats[qa.z + c];
    let a3 = feats[qa.w + c];
    let b0 = feats[qb.x + c];
    let b1 = feats[qb.y + c];
    let b2 = feats[qb.z + c];
    let b3 = feats[qb.w + c];
    let k0 = feats[keys.lo.x + c];
    let k1 = feats[keys.lo.y + c];
    let k2 = feats[keys.lo.z + c];
    let k3 = feats[keys.lo.w + c];
    let k4 = feats[keys.hi.x + c];
    let k5 = feats[keys.hi.y + c];
    let k6 = feats[keys.hi.z + c];
    let k7 = feats[keys.hi.w + c];
    c0 += dot4(a0, a1, a2, a3, k0);
    c1 += dot4(a0, a1, a2, a3, k1);
    c2 += dot4(a0, a1, a2, a3, k2);
    c3 += dot4(a0, a1, a2, a3, k3);
    c4 += dot4(a0, a1, a2, a3, k4);
    c5 += dot4(a0, a1, a2, a3, k5);
    c6 += dot4(a0, a1, a2, a3, k6);
    c7 += dot4(a0, a1, a2, a3, k7);
    d0 += dot4(b0, b1, b2, b3, k0);
    d1 += dot4(b0, b1, b2, b3, k1);
    d2 += dot4(b0, b1, b2, b3, k2);
    d3 += dot4(b0, b1, b2, b3, k3);
    d4 += dot4(b0, b1, b2, b3, k4);
    d5 += dot4(b0, b1, b2, b3, k5);
    d6 += dot4(b0, b1, b2, b3, k6);
    d7 += dot4(b0, b1, b2, b3, k7);
  }
  // row i of the block: keys j0 … j0+3 and j0+4 … j0+7 as two vec4s
  for (var i = 0u; i < 4u; i++) {
    if (t0 + i < R) {
      let o = (slot * R + t0 + i) * p.ns + 2u * kb;
      dots[o] = vec4f(c0[i], c1[i], c2[i], c3[i]);
      dots[o + 1u] = vec4f(c4[i], c5[i], c6[i], c7[i]);
    }
    if (t0 + 4u + i < R) {
      let o = (slot * R + t0 + 4u + i) * p.ns + 2u * kb;
      dots[o] = vec4f(d0[i], d1[i], d2[i], d3[i]);
      dots[o + 1u] = vec4f(d4[i], d5[i], d6[i], d7[i]);
    }
  }
}

@compute @workgroup_size(WG)
fn rowDotsThin(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let slot = wid.y;
  let b = wid.x * WG + lid;
  let t = b / p.k8;
  let R = p.rowCount;
  if (t >= R) { return; }
  let kb = b - t * p.k8;
  let j0 = 8u * kb;
  let r = rowList[t];
  if (p.causal != 0u && j0 > r) { return; }
  let e = table[slot];
  let m4 = e.z;
  let qa = e.x + select(t, r, (e.w & 1u) != 0u) * m4;
  let keys = keyBlock(e.y, j0, p.n, m4);
  var lo = vec4f(0.0);
  var hi = vec4f(0.0);
  for (var c = 0u; c < m4; c++) {
    let a = feats[qa + c];
    lo += vec4f(dot(a, feats[keys.lo.x + c]), dot(a, feats[keys.lo.y + c]), dot(a, feats[keys.lo.z + c]), dot(a, feats[keys.lo.w + c]));
    hi += vec4f(dot(a, feats[keys.hi.x + c]), dot(a, feats[keys.hi.y + c]), dot(a, feats[keys.hi.z + c]), dot(a, feats[keys.hi.w + c]));
  }
  let o = (slot * R + t) * p.ns + 2u * kb;
  dots[o] = lo;
  dots[o + 1u] = hi;
}

fn allowedKeys(j4: u32, r: u32) -> vec4<bool> {
  let j = vec4u(4u * j4) + vec4u(0u, 1u, 2u, 3u);
  var ok = j < vec4u(p.n);
  if (p.causal != 0u) { ok = ok & (j <= vec4u(r)); }
  return ok;
}

fn hsum(x: vec4f) -> f32 {
  return (x.x + x.y) + (x.z + x.w);
}

@compute @workgroup_size(RWG)
fn rowReduce(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let R = p.rowCount;
  let idx = wid.x * RWG + lid;
  let v = idx / R;
  if (v >= p.variants) { return; }
  let t = idx - v * R;
  let r = rowList[t];
  let exactRow = (p.variants * R + t) * p.ns;
  let approxRow = (v * R + t) * p.ns;
  // the allowed keys' vec4 groups: ⌈kEnd / 4⌉
  var kEnd = p.n;
  if (p.causal != 0u) { kEnd = min(p.n, r + 1u); }
  let g4 = (kEnd + 3u) / 4u;
  // keys with their own log-scale (attention-row-list-features.wgsl): g_j = g̃_j·exp(kscale_j − C)
  let scaled = (table[v].w & 2u) != 0u;
  let ks = v * p.ns;

  // normalizers in one sweep: online maxima M of s and C of kscale (the sums rescaled when they grow),
  // S = Σ exp(s − M), D = Σ g
  var M = NEG;
  var S = 0.0;
  var C = 0.0;
  var D = 0.0;
  if (scaled) { C = NEG; }
  for (var c = 0u; c < g4; c++) {
    let ok = allowedKeys(c, r);
    let s = dots[exactRow + c] * p.scale;
    var g = dots[approxRow + c];
    let sm = select(vec4f(NEG), s, ok);
    let mNew = max(M, max(max(sm.x, sm.y), max(sm.z, sm.w)));
    S = S * exp(M - mNew) + hsum(select(vec4f(0.0), exp(s - mNew), ok));
    M = mNew;
    if (scaled) {
      let kc = kscale[ks + c];
      let km = select(vec4f(NEG), kc, ok);
      let cNew = max(C, max(max(km.x, km.y), max(km.z, km.w)));
      D = D * exp(C - cNew);
      g *= exp(kc - cNew);
      C = cNew;
    }
    D += hsum(select(vec4f(0.0), g, ok));
  }
  let logS = log(S);

  var hA = 0.0;
  var hB = 0.0;
  var sq = 0.0;
  var ex = 0.0;
  var kl = 0.0;
  let fullA = p.fullBase + t * p.n;
  let fullB = p.fullBase + ((v + 1u) * R + t) * p.n;
  let groups = select(g4, (p.n + 3u) / 4u, p.full != 0u);
  for (var c = 0u; c < groups; c++) {
    let ok = allowedKeys(c, r);
    let s = dots[exactRow + c] * p.scale;
    var g = dots[approxRow + c];
    if (scaled) { g *= exp(kscale[ks + c] - C); }
    let la = s - M - logS;
    let a = select(vec4f(0.0), exp(s - M) / S, ok);
    let bh = select(vec4f(0.0), g / D, ok & vec4<bool>(D != 0.0)); // all-zero normalizer: Â row 0
    let lb = log(max(bh, vec4f(KL_FLOOR)));
    let aPos = a > vec4f(0.0);
    hA -= hsum(select(vec4f(0.0), a * la, aPos));
    kl += hsum(select(vec4f(0.0), a * (la - lb), aPos));
    hB -= hsum(select(vec4f(0.0), bh * lb, bh > vec4f(0.0)));
    sq += hsum((a - bh) * (a - bh));
    ex += hsum(a * a);
    if (p.full != 0u) {
      for (var i = 0u; i < 4u; i++) {
        let j = 4u * c + i;
        if (j < p.n) {
          if (v == 0u) { outBuf[fullA + j] = a[i]; }
          outBuf[fullB + j] = bh[i];
        }
      }
    }
  }
  let o = 5u * v * R + t;
  outBuf[o] = hA;
  outBuf[o + R] = hB;
  outBuf[o + 2u * R] = sq;
  outBuf[o + 3u * R] = ex;
  outBuf[o + 4u * R] = kl;
}
