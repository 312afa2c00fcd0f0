// Exact softmax attention, fused and tiled with an online softmax (flash-attention style).
//
//   s_ij = q_i·k_j / √d            (causal: keys j > i masked)
//   out_i = Σ_j exp(s_ij − M_i) v_j / Σ_j exp(s_ij − M_i),   M_i = max_j s_ij
//
// Never forms the n×n matrix. A workgroup owns BR consecutive query rows and streams the keys in
// tiles of BC rows through workgroup memory, keeping per row the running max m, the running sum ℓ
// and the running weighted sum acc of values; when the max grows, ℓ and acc are rescaled by
// e^{m_old − m_new} (the same recurrence as core/exact-attention.ts `exactAttentionOutput`).
// Causal: the key loop ends at the workgroup's last row, so fully masked key tiles are skipped.
//
// Threads: WG = BR · TPR. Thread t works on row r = t / TPR as lane l = t % TPR: it computes the
// scores of keys jj ≡ l (mod TPR) of each tile and owns the output columns c ≡ l (mod TPR)
// (ACC = ⌈D / TPR⌉ accumulators). Row maxima and ℓ are combined across the TPR lanes of a row
// through workgroup memory in a fixed order (deterministic).
// Workgroup memory: (BR + BC)·DS + BR·BC + WG floats (DS = row stride ≥ D, odd to spread banks).
//
// Bindings: 0 params (uniform), 1 Q, 2 K, 3 V (n×D row-major f32), 4 out (n×D).
// Dispatch: ⌈n / BR⌉ workgroups over (x, y) with x < 65 536 (workgroup index = x + y·gridX
// + wgOffset; a long run may be split into several dispatches by wgOffset).

override WG: u32 = 64u;      // invocations per workgroup (= BR · TPR)
override BR: u32 = 16u;      // query rows per workgroup
override BC: u32 = 16u;      // keys per streamed tile
override D: u32 = 64u;       // head dimension d (= d_v)
override DS: u32 = 65u;      // workgroup-memory row stride (≥ D)
override TPR: u32 = WG / BR; // lanes per query row
override ACC: u32 = (D + TPR - 1u) / TPR; // accumulators per lane (≤ 64)

struct Params {
  n: u32,
  causal: u32,
  gridX: u32,
  wgOffset: u32,
  scale: f32, // 1/√d
  wgEnd: u32, // workgroups at or past this index (grid padding) do nothing
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

const NEG: f32 = -3.0e38; // stands in for −∞ (WGSL has no infinities)
const MASK_LIMIT: f32 = -1.0e38;

var<workgroup> qs: array<f32, BR * DS>;
var<workgroup> kv: array<f32, BC * DS>; // K tile, then V tile
var<workgroup> ss: array<f32, BR * BC>; // scores, then probabilities
var<workgroup> lanes: array<f32, WG>;   // per-lane partial max, at the end partial ℓ

// Copies rows [row0, row0 + rows) of a (n×D) into dst with stride DS; rows ≥ n read as 0.
// The source block is contiguous, so consecutive invocations read consecutive floats.
fn loadTile(which: u32, row0: u32, rows: u32, t: u32) {
  let total = rows * D;
  for (var idx = t; idx < total; idx += WG) {
    let rr = idx / D;
    let c = idx - rr * D;
    let g = row0 + rr;
    var x = 0.0;
    if (g < p.n) {
      if (which == 0u) { x = k[g * D + c]; } else { x = v[g * D + c]; }
    }
    kv[rr * DS + c] = x;
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let wg = wid.x + wid.y * p.gridX + p.wgOffset;
  let i0 = wg * BR;
  if (wg >= p.wgEnd || i0 >= p.n) { return; } // uniform: depends on the workgroup only

  let r = t / TPR;
  let l = t - r * TPR;
  let i = i0 + r;

  // Q tile (contiguous rows i0 .. i0 + BR).
  for (var idx = t; idx < BR * D; idx += WG) {
    let rr = idx / D;
    let c = idx - rr * D;
    let g = i0 + rr;
    var x = 0.0;
    if (g < p.n) { x = q[g * D + c]; }
    qs[rr * DS + c] = x;
  }

  var acc: array<f32, 64>;
  for (var a = 0u; a < ACC; a++) { acc[a] = 0.0; }
  var mRun = NEG;
  var lRun = 0.0;

  var kEnd = p.n;
  if (p.causal != 0u) { kEnd = min(p.n, i0 + BR); }

  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    workgroupBarrier(); // previous tile's V and probabilities are no longer read
    loadTile(0u, j0, BC, t);
    workgroupBarrier();

    // Scores of this lane's keys.
    var pmax = NEG;
    for (var jj = l; jj < BC; jj += TPR) {
      var s = 0.0;
      for (var c = 0u; c < D; c++) { s += qs[r * DS + c] * kv[jj * DS + c]; }
      let j = j0 + jj;
      let allowed = j < p.n && (p.causal == 0u || j <= i);
      s = select(NEG, s * p.scale, allowed);
      ss[r * BC + jj] = s;
      pmax = max(pmax, s);
    }
    lanes[t] = pmax;
    workgroupBarrier(); // scores and K reads done

    // Row max over the lanes, rescale, probabilities of this lane's keys; meanwhile load V.
    var tmax = NEG;
    for (var u = 0u; u < TPR; u++) { tmax = max(tmax, lanes[r * TPR + u]); }
    let mNew = max(mRun, tmax);
    let corr = exp(mRun - mNew);
    mRun = mNew;
    lRun *= corr;
    for (var a = 0u; a < ACC; a++) { acc[a] *= corr; }
    for (var jj = l; jj < BC; jj += TPR) {
      let s = ss[r * BC + jj];
      let pr = select(0.0, exp(s - mNew), s > MASK_LIMIT);
      ss[r * BC + jj] = pr;
      lRun += pr;
    }
    loadTile(1u, j0, BC, t);
    workgroupBarrier();

    // acc[c] += Σ_jj p_jj v_jj[c] for this lane's columns.
    for (var jj = 0u; jj < BC; jj++) {
      let pr = ss[r * BC + jj];
      for (var a = 0u; a < ACC; a++) {
        let c = l + a * TPR;
        if (c < D) { acc[a] += pr * kv[jj * DS + c]; }
      }
    }
  }

  // ℓ_i = Σ over the row's lanes (fixed order).
  workgroupBarrier();
  lanes[t] = lRun;
  workgroupBarrier();
  var lsum = 0.0;
  for (var u = 0u; u < TPR; u++) { lsum += lanes[r * TPR + u]; }
  if (i < p.n) {
    let inv = 1.0 / lsum;
    for (var a = 0u; a < ACC; a++) {
      let c = l + a * TPR;
      if (c < D) { out[i * D + c] = acc[a] * inv; }
    }
  }
}
