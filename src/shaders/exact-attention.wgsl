// Exact softmax attention, fused and tiled with an online softmax (flash-attention style).
//
//   s_ij = q_i·k_j / √d            (causal: keys j > i masked)
//   out_i = Σ_j exp(s_ij − M_i) v_j / Σ_j exp(s_ij − M_i),   M_i = max_j s_ij
//
// The n×n matrix is never formed. A workgroup owns BR consecutive query rows and streams the keys
// in tiles of BC keys through workgroup memory, keeping per row the running max m, the running sum
// ℓ and the running weighted sum acc of values; when the max grows, ℓ and acc are rescaled by
// e^{m_old − m_new} — the recurrence of core/exact-attention.ts `exactAttentionOutput`.
// Causal: the key loop stops at the workgroup's last row, so fully masked key tiles are skipped;
// only the diagonal tile (and the ragged last tile) evaluate the mask.
//
// Inputs are rows padded to D4 = ⌈d/4⌉ vec4s (see pack-vec4.wgsl; no copy when 4 | d). Rows past
// n are read as row n−1 (never written; as keys they are masked), so loads need no row branch.
// Threads: WG = RG·TG. Row group g = t / TG holds rows 4g … 4g+3 of the tile; its TG threads
// (u = t % TG) split the work:
//   scores   thread u computes the 4 × RN micro-tile of rows 4g..4g+3 × keys u + TG·x (x < RN),
//            so BC = RN·TG; the K tile is streamed in chunks of DC4 vec4 columns;
//   softmax  row maxima are combined over the TG threads through workgroup memory in a fixed
//            order (deterministic); each thread keeps partial ℓ for its keys;
//   P·V      thread u owns the value columns (vec4) c4 ≡ u (mod TG) of each DC4 chunk, for the 4
//            rows of its group: 4·NCH·CPT vec4 accumulators (≤ 16), CPT = ⌈DC4/TG⌉.
// Q is kept in workgroup memory when it fits (Q_SHARED), else read from the (cached) buffer.
// Workgroup memory, floats: 4·(Q_SHARED ? BR·D4 : 1) + 4·BC·DC4 + BR·BC + 4·WG.
//
// Bindings: 0 params (uniform), 1 Q, 2 K, 3 V (n×D4 vec4f), 4 out (n×d f32, row-major).
// Dispatch: ⌈n / BR⌉ workgroups over (x, y) with x ≤ 65 535; workgroup index = x + y·gridX +
// wgOffset, indices ≥ wgEnd idle (a long run may be split over several dispatches).

override WG: u32 = 64u;        // invocations per workgroup
override BR: u32 = 32u;        // query rows per workgroup (multiple of 4)
override RN: u32 = 4u;         // keys per thread in the score micro-tile (1, 2 or 4)
override D: u32 = 64u;         // head dimension d (= d_v)
override DC4: u32 = 16u;       // vec4 columns per K/V chunk
override Q_SHARED: bool = true;
override RG: u32 = BR / 4u;    // row groups
override TG: u32 = WG / RG;    // threads per row group
override BC: u32 = RN * TG;    // keys per tile
override D4: u32 = (D + 3u) / 4u;
override NCH: u32 = (D4 + DC4 - 1u) / DC4;  // chunks per row
override CPT: u32 = (DC4 + TG - 1u) / TG;    // value vec4 columns per thread per chunk
override QS_LEN: u32 = select(1u, BR * D4, Q_SHARED);

struct Params {
  n: u32,
  causal: u32,
  gridX: u32,
  wgOffset: u32,
  scale: f32, // 1/√d
  wgEnd: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<vec4f>;
@group(0) @binding(2) var<storage, read> k: array<vec4f>;
@group(0) @binding(3) var<storage, read> v: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

const NEG: f32 = -3.0e38; // stands in for −∞ (WGSL has no infinities)
const MASKED: f32 = -1.0e38;

var<workgroup> qs: array<vec4f, QS_LEN>;
var<workgroup> kv: array<vec4f, BC * DC4>;  // chunk of the K tile, then of the V tile
var<workgroup> pt: array<vec4f, BC * RG>;   // probabilities, pt[j·RG + g] = rows 4g..4g+3 of key j
var<workgroup> lanes: array<vec4f, WG>;     // per-thread partial row maxima, at the end partial ℓ

// Chunk `ch` (vec4 columns ch·DC4 …) of key rows j0 … j0+BC−1 of K into kv. Rows ≥ n repeat row
// n−1 (their scores are masked, their probabilities 0); columns ≥ D4 read as 0. Consecutive
// invocations read consecutive vec4s; no divergent branch around the load.
fn loadK(j0: u32, ch: u32, t: u32) {
  let c0 = ch * DC4;
  let last = p.n - 1u;
  for (var idx = t; idx < BC * DC4; idx += WG) {
    let jj = idx / DC4;
    let c = c0 + idx - jj * DC4;
    let x = k[min(j0 + jj, last) * D4 + min(c, D4 - 1u)];
    kv[idx] = select(vec4f(0.0), x, c < D4);
  }
}

fn loadV(j0: u32, ch: u32, t: u32) {
  let c0 = ch * DC4;
  let last = p.n - 1u;
  for (var idx = t; idx < BC * DC4; idx += WG) {
    let jj = idx / DC4;
    let c = c0 + idx - jj * DC4;
    let x = v[min(j0 + jj, last) * D4 + min(c, D4 - 1u)];
    kv[idx] = select(vec4f(0.0), x, c < D4);
  }
}

fn qrow(rl: u32, row: u32, c4: u32) -> vec4f {
  if (Q_SHARED) { return qs[rl * D4 + c4]; }
  return q[row * D4 + c4];
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let wg = wid.x + wid.y * p.gridX + p.wgOffset;
  let i0 = wg * BR;
  if (wg >= p.wgEnd || i0 >= p.n) { return; } // uniform: depends on the workgroup only

  let g = t / TG;
  let u = t - g * TG;
  let rl0 = 4u * g;          // first local row of this thread's group
  let ir = vec4u(i0 + rl0) + vec4u(0u, 1u, 2u, 3u); // its 4 global rows
  // Rows past n compute on row n−1 (never written), so no load needs a row guard.
  let last = p.n - 1u;
  let r0 = min(ir.x, last);
  let r1 = min(ir.y, last);
  let r2 = min(ir.z, last);
  let r3 = min(ir.w, last);

  if (Q_SHARED) {
    for (var idx = t; idx < BR * D4; idx += WG) {
      let rl = idx / D4;
      qs[idx] = q[min(i0 + rl, last) * D4 + idx - rl * D4];
    }
  }

  var acc: array<vec4f, 16>;
  for (var a = 0u; a < 4u * NCH * CPT; a++) { acc[a] = vec4f(0.0); }
  var mRun = vec4f(NEG);
  var lRun = vec4f(0.0);

  var kEnd = p.n;
  if (p.causal != 0u) { kEnd = min(p.n, i0 + BR); }

  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    // ---- scores: s_x = (s_{r0,j}, …, s_{r3,j}) for j = j0 + u + TG·x
    var s0 = vec4f(0.0);
    var s1 = vec4f(0.0);
    var s2 = vec4f(0.0);
    var s3 = vec4f(0.0);
    for (var ch = 0u; ch < NCH; ch++) {
      workgroupBarrier();
      loadK(j0, ch, t);
      workgroupBarrier();
      let c0 = ch * DC4;
      let cEnd = min(DC4, D4 - c0);
      for (var c4 = 0u; c4 < cEnd; c4++) {
        let q0 = qrow(rl0, r0, c0 + c4);
        let q1 = qrow(rl0 + 1u, r1, c0 + c4);
        let q2 = qrow(rl0 + 2u, r2, c0 + c4);
        let q3 = qrow(rl0 + 3u, r3, c0 + c4);
        s0 += dot4(q0, q1, q2, q3, kv[u * DC4 + c4]);
        if (RN > 1u) { s1 += dot4(q0, q1, q2, q3, kv[(u + TG) * DC4 + c4]); }
        if (RN > 2u) {
          s2 += dot4(q0, q1, q2, q3, kv[(u + 2u * TG) * DC4 + c4]);
          s3 += dot4(q0, q1, q2, q3, kv[(u + 3u * TG) * DC4 + c4]);
        }
      }
    }
    s0 *= p.scale;
    s1 *= p.scale;
    s2 *= p.scale;
    s3 *= p.scale;
    // Mask only where the tile reaches past n or (causal) past the group's first row.
    if (j0 + BC > p.n || (p.causal != 0u && j0 + BC > i0 + 1u)) {
      var lim = vec4u(last);
      if (p.causal != 0u) { lim = min(lim, ir); }
      let j = j0 + u;
      s0 = select(vec4f(NEG), s0, vec4u(j) <= lim);
      s1 = select(vec4f(NEG), s1, vec4u(j + TG) <= lim);
      s2 = select(vec4f(NEG), s2, vec4u(j + 2u * TG) <= lim);
      s3 = select(vec4f(NEG), s3, vec4u(j + 3u * TG) <= lim);
    }
    var pmax = s0;
    if (RN > 1u) { pmax = max(pmax, s1); }
    if (RN > 2u) { pmax = max(pmax, max(s2, s3)); }
    lanes[t] = pmax;
    workgroupBarrier();

    // ---- online softmax: tile max over the group's threads, rescale, probabilities
    var tmax = vec4f(NEG);
    for (var w = 0u; w < TG; w++) { tmax = max(tmax, lanes[g * TG + w]); }
    let mNew = max(mRun, tmax);
    let corr = exp(mRun - mNew);
    mRun = mNew;
    for (var a = 0u; a < 4u * NCH * CPT; a++) { acc[a] *= corr[a % 4u]; }
    let p0 = select(vec4f(0.0), exp(s0 - mNew), s0 > vec4f(MASKED));
    var psum = p0;
    pt[u * RG + g] = p0;
    if (RN > 1u) {
      let p1 = select(vec4f(0.0), exp(s1 - mNew), s1 > vec4f(MASKED));
      psum += p1;
      pt[(u + TG) * RG + g] = p1;
    }
    if (RN > 2u) {
      let p2 = select(vec4f(0.0), exp(s2 - mNew), s2 > vec4f(MASKED));
      let p3 = select(vec4f(0.0), exp(s3 - mNew), s3 > vec4f(MASKED));
      psum += p2 + p3;
      pt[(u + 2u * TG) * RG + g] = p2;
      pt[(u + 3u * TG) * RG + g] = p3;
    }
    lRun = lRun * corr + psum;

    // ---- acc += P · V, chunk by chunk
    for (var ch = 0u; ch < NCH; ch++) {
      workgroupBarrier();
      loadV(j0, ch, t);
      workgroupBarrier();
      for (var x = 0u; x < CPT; x++) {
        let c4 = u + x * TG;
        if (c4 < DC4) {
          let a = (ch * CPT + x) * 4u;
          var o0 = acc[a];
          var o1 = acc[a + 1u];
          var o2 = acc[a + 2u];
          var o3 = acc[a + 3u];
          for (var jj = 0u; jj < BC; jj++) {
            let pr = pt[jj * RG + g];
            let vv = kv[jj * DC4 + c4];
            o0 += pr.x * vv;
            o1 += pr.y * vv;
            o2 += pr.z * vv;
            o3 += pr.w * vv;
          }
          acc[a] = o0;
          acc[a + 1u] = o1;
          acc[a + 2u] = o2;
          acc[a + 3u] = o3;
        }
      }
    }
  }

  // ---- ℓ = Σ over the group's threads (fixed order); write rows < n, columns < D
  workgroupBarrier();
  lanes[t] = lRun;
  workgroupBarrier();
  var lsum = vec4f(0.0);
  for (var w = 0u; w < TG; w++) { lsum += lanes[g * TG + w]; }
  let inv = 1.0 / lsum;
  for (var ch = 0u; ch < NCH; ch++) {
    for (var x = 0u; x < CPT; x++) {
      let c4 = ch * DC4 + u + x * TG;
      if (u + x * TG < DC4 && c4 < D4) {
        let a = (ch * CPT + x) * 4u;
        for (var rr = 0u; rr < 4u; rr++) {
          let row = ir[rr];
          if (row < p.n) {
            let o = acc[a + rr] * inv[rr];
            let base = row * D + 4u * c4;
            out[base] = o.x;
            if (4u * c4 + 1u < D) { out[base + 1u] = o.y; }
            if (4u * c4 + 2u < D) { out[base + 2u] = o.z; }
            if (4u * c4 + 3u < D) { out[base + 3u] = o.w; }
          }
        }
      }
    }
  }
}
