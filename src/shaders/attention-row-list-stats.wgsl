// Per-row statistics of exact vs approximate attention on a list of query rows (cost O(R·n·(d + m')),
// memory O(R)); the tile code and bindings 0–4 come from attention-tile.wgsl, which the dispatcher
// prepends. The analyses' sweeps run it once per variant (map, W, stabilizer) of one problem.
//
// With s_ij = q_i·k_j/√d, g_ij = φ(q_i)·φ(k_j), allowed keys j < n (causal: j ≤ i), for the R = p.rowCount
// listed rows r_t = rowList[t] (distinct):
//   listNormalizers  norms[r_t] = (M, S, D, 0):  M = max_j s, S = Σ_j exp(s − M), D = Σ_j g
//                    (as `normalizers` of attention-row-stats.wgsl, for the listed rows only; its
//                    `fullRows` reads the same buffer)
//   listStats        with A_j = exp(s_j − M)/S, Â_j = g_j / D (0 when D = 0), log A_j = s_j − M − log S:
//                    out[base + k·R + t], k = 0 … 4:  H(A_r) = −Σ_{A>0} A log A,  H(Â_r) = −Σ_{Â>0} Â log Â,
//                    Σ (A − Â)²,  Σ A²,  KL(A_r ‖ Â_r) = Σ_{A>0} A (log A − log max(Â, 1e-30))
//                    (CPU twin: core/analysis-backend.ts rowListStats on exactRowsOf / approxRowsOf)
//
// Bindings: 0 params (attention-tile.wgsl; rowCount = R, gridX), 1 Q, 2 K, 3 φ(Q), 4 φ(K) (vec4
// rows, all n rows), 5 norms (n vec4f), 6 out (f32), 7 row list (R u32), 8 base (x: first float of
// this variant's statistics in out).
// Thread mapping: a workgroup takes BR consecutive list slots (4 per row group gr = t / TG) against
// all keys in tiles of BC; key slot u = t % TG accumulates keys u + TG·x; the TG partials of a row are
// combined by lane u = 0 in a fixed order (deterministic).
// Dispatch: ⌈R/BR⌉ workgroups over (x, y), index x + y·gridX.

@group(0) @binding(5) var<storage, read_write> norms: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> outBuf: array<f32>;
@group(0) @binding(7) var<storage, read> rowList: array<u32>;
@group(0) @binding(8) var<uniform> base: vec4u;

var<workgroup> lanesA: array<vec4f, WG>;
var<workgroup> lanesB: array<vec4f, WG>;
var<workgroup> lanesC: array<vec4f, WG>;
var<workgroup> lanesD: array<vec4f, WG>;
var<workgroup> lanesE: array<vec4f, WG>;

fn allowed(ir: vec4u, j: u32) -> vec4<bool> {
  let inRange = vec4<bool>(j < p.n);
  if (p.causal != 0u) { return inRange & (vec4u(j) <= ir); }
  return inRange;
}

fn slotStart(wid: vec3u) -> u32 {
  return (wid.x + wid.y * p.gridX) * BR;
}

// Last key any row of the tile may attend to, + 1 (read from the row list: uniform).
fn listKeyEnd(slot0: u32) -> u32 {
  if (p.causal == 0u) { return p.n; }
  var mx = 0u;
  let last = min(slot0 + BR, p.rowCount);
  for (var s = slot0; s < last; s++) { mx = max(mx, rowList[s]); }
  return min(p.n, mx + 1u);
}

fn listRow(slot: u32) -> u32 {
  return rowList[min(slot, p.rowCount - 1u)];
}

@compute @workgroup_size(WG)
fn listNormalizers(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let slot0 = slotStart(wid);
  if (slot0 >= p.rowCount) { return; }
  if (t < BR) { tileRows[t] = listRow(slot0 + t); }
  let gr = t / TG;
  let u = t - gr * TG;
  let slots = vec4u(slot0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ir = vec4u(listRow(slots.x), listRow(slots.y), listRow(slots.z), listRow(slots.w));

  var mRun = vec4f(NEG);
  var lRun = vec4f(0.0);
  var dRun = vec4f(0.0);
  let kEnd = listKeyEnd(slot0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    let mt = microTile(j0, t);
    var tmax = vec4f(NEG);
    for (var x = 0u; x < RN; x++) {
      tmax = max(tmax, select(vec4f(NEG), mt.s[x], allowed(ir, j0 + u + x * TG)));
    }
    let mNew = max(mRun, tmax);
    lRun *= exp(mRun - mNew);
    mRun = mNew;
    for (var x = 0u; x < RN; x++) {
      let ok = allowed(ir, j0 + u + x * TG);
      lRun += select(vec4f(0.0), exp(mt.s[x] - mNew), ok);
      dRun += select(vec4f(0.0), mt.g[x], ok);
    }
  }

  lanesA[t] = mRun;
  lanesB[t] = lRun;
  lanesC[t] = dRun;
  workgroupBarrier();
  if (u == 0u) {
    var mAll = vec4f(NEG);
    for (var w = 0u; w < TG; w++) { mAll = max(mAll, lanesA[t + w]); }
    var sAll = vec4f(0.0);
    var dAll = vec4f(0.0);
    for (var w = 0u; w < TG; w++) {
      sAll += lanesB[t + w] * exp(lanesA[t + w] - mAll);
      dAll += lanesC[t + w];
    }
    for (var r = 0u; r < 4u; r++) {
      if (slots[r] < p.rowCount) { norms[ir[r]] = vec4f(mAll[r], sAll[r], dAll[r], 0.0); }
    }
  }
}

@compute @workgroup_size(WG)
fn listStats(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let slot0 = slotStart(wid);
  if (slot0 >= p.rowCount) { return; }
  if (t < BR) { tileRows[t] = listRow(slot0 + t); }
  let gr = t / TG;
  let u = t - gr * TG;
  let slots = vec4u(slot0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ir = vec4u(listRow(slots.x), listRow(slots.y), listRow(slots.z), listRow(slots.w));
  let n0 = norms[ir.x];
  let n1 = norms[ir.y];
  let n2 = norms[ir.z];
  let n3 = norms[ir.w];
  let rm = vec4f(n0.x, n1.x, n2.x, n3.x);
  let rs = vec4f(n0.y, n1.y, n2.y, n3.y);
  let logS = log(rs);
  let rd = vec4f(n0.z, n1.z, n2.z, n3.z);

  var hA = vec4f(0.0);
  var hB = vec4f(0.0);
  var sq = vec4f(0.0);
  var ex = vec4f(0.0);
  var kl = vec4f(0.0);
  let kEnd = listKeyEnd(slot0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    let mt = microTile(j0, t);
    for (var x = 0u; x < RN; x++) {
      let ok = allowed(ir, j0 + u + x * TG);
      let la = mt.s[x] - rm - logS;
      let a = select(vec4f(0.0), exp(mt.s[x] - rm) / rs, ok);
      let b = select(vec4f(0.0), mt.g[x] / rd, ok & (rd != vec4f(0.0)));
      let aPos = a > vec4f(0.0);
      hA -= select(vec4f(0.0), a * la, aPos);
      kl += select(vec4f(0.0), a * (la - log(max(b, vec4f(KL_FLOOR)))), aPos);
      hB -= select(vec4f(0.0), b * log(max(b, vec4f(KL_FLOOR))), b > vec4f(0.0));
      sq += (a - b) * (a - b);
      ex += a * a;
    }
  }

  lanesA[t] = hA;
  lanesB[t] = hB;
  lanesC[t] = sq;
  lanesD[t] = ex;
  lanesE[t] = kl;
  workgroupBarrier();
  if (u == 0u) {
    var s0 = vec4f(0.0);
    var s1 = vec4f(0.0);
    var s2 = vec4f(0.0);
    var s3 = vec4f(0.0);
    var s4 = vec4f(0.0);
    for (var w = 0u; w < TG; w++) {
      s0 += lanesA[t + w];
      s1 += lanesB[t + w];
      s2 += lanesC[t + w];
      s3 += lanesD[t + w];
      s4 += lanesE[t + w];
    }
    let R = p.rowCount;
    for (var r = 0u; r < 4u; r++) {
      let s = slots[r];
      if (s < R) {
        outBuf[base.x + s] = s0[r];
        outBuf[base.x + R + s] = s1[r];
        outBuf[base.x + 2u * R + s] = s2[r];
        outBuf[base.x + 3u * R + s] = s3[r];
        outBuf[base.x + 4u * R + s] = s4[r];
      }
    }
  }
}
