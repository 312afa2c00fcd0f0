// Masked softmax cross-entropy with its gradient and the step's loss / correct / count reduction
// (dispatcher src/gpu/train/cross-entropy.ts; CPU twin src/core/train/cross-entropy.ts).
//
//   rows:   per row r with mask_r = 1: lse_r = max_v z_rv + log Σ_v exp(z_rv − max), loss_r = lse_r − z_r,target,
//           correct_r = [argmax_v z_rv = target_r] (ties → the lowest index), count = Σ_r mask_r,
//           dz_rv = mask_r·(softmax(z_r)_v − [v = target_r]) / count   (0 when count = 0)
//   reduce: stats[0] = Σ_r loss_r / count (0 when count = 0), stats[1] = Σ_r correct_r, stats[2] = count
//
// Thread mapping: rows one workgroup of 64 per row — invocation t takes columns t, t + 64, …, then
// fixed-order tree reductions in workgroup memory (max with its index, the exp sum, the mask count,
// each workgroup counting the mask itself so no pass has to run before it); reduce one workgroup of
// 64 summing the per-row values in a fixed order. Deterministic, no atomics.
// Dispatch: rows `rows` workgroups folded into (nx, ny); reduce 1 workgroup.

struct Params { rows: u32, vocab: u32, nx: u32, _p: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> Z: array<f32>;
@group(0) @binding(2) var<storage, read> TGT: array<i32>;
@group(0) @binding(3) var<storage, read> MASK: array<u32>;
@group(0) @binding(4) var<storage, read_write> DZ: array<f32>;
// per row: [loss_r, correct_r]
@group(0) @binding(5) var<storage, read_write> ROW: array<f32>;

var<workgroup> rv: array<f32, 64>;
var<workgroup> ri: array<u32, 64>;

@compute @workgroup_size(64)
fn rows(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = wg.y * P.nx + wg.x;
  if (r >= P.rows) { return; }
  let t = lid.x;
  let base = r * P.vocab;
  // mask count
  var c = 0u;
  for (var i = t; i < P.rows; i += 64u) { c += select(0u, 1u, MASK[i] != 0u); }
  ri[t] = c;
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) { ri[t] += ri[t + s]; }
  }
  workgroupBarrier();
  let count = ri[0];
  workgroupBarrier();
  // max and its lowest index
  var mx = -3.4e38;
  var mi = 0xffffffffu;
  for (var j = t; j < P.vocab; j += 64u) {
    let z = Z[base + j];
    if (z > mx) { mx = z; mi = j; }
  }
  rv[t] = mx;
  ri[t] = mi;
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) {
      let a = rv[t];
      let b = rv[t + s];
      if (b > a || (b == a && ri[t + s] < ri[t])) {
        rv[t] = b;
        ri[t] = ri[t + s];
      }
    }
  }
  workgroupBarrier();
  let zmax = rv[0];
  let amax = ri[0];
  workgroupBarrier();
  var se = 0.0;
  for (var j = t; j < P.vocab; j += 64u) { se += exp(Z[base + j] - zmax); }
  rv[t] = se;
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) { rv[t] += rv[t + s]; }
  }
  workgroupBarrier();
  let sum = rv[0];
  let on = MASK[r] != 0u && count > 0u;
  let tg = TGT[r];
  let scale = select(0.0, 1.0 / f32(count), on);
  for (var j = t; j < P.vocab; j += 64u) {
    let p = exp(Z[base + j] - zmax) / sum;
    DZ[base + j] = scale * (p - select(0.0, 1.0, i32(j) == tg));
  }
  if (t == 0u) {
    var loss = 0.0;
    var ok = 0.0;
    if (on && tg >= 0 && u32(tg) < P.vocab) {
      loss = zmax + log(sum) - Z[base + u32(tg)];
      ok = select(0.0, 1.0, amax == u32(tg));
    }
    ROW[2u * r] = loss;
    ROW[2u * r + 1u] = ok;
  }
}

// reduce: ROW read, STATS[0..2] written; Z / TGT / DZ unused (MASK counted again, in order).
@group(0) @binding(6) var<storage, read_write> STATS: array<f32>;
var<workgroup> rl: array<f32, 64>;
var<workgroup> rc: array<f32, 64>;

@compute @workgroup_size(64)
fn reduce(@builtin(local_invocation_id) lid: vec3<u32>) {
  let t = lid.x;
  var l = 0.0;
  var c = 0.0;
  var n = 0.0;
  for (var i = t; i < P.rows; i += 64u) {
    l += ROW[2u * i];
    c += ROW[2u * i + 1u];
    n += select(0.0, 1.0, MASK[i] != 0u);
  }
  rl[t] = l;
  rc[t] = c;
  rv[t] = n;
  for (var s = 32u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) {
      rl[t] += rl[t + s];
      rc[t] += rc[t + s];
      rv[t] += rv[t + s];
    }
  }
  workgroupBarrier();
  if (t == 0u) {
    let count = rv[0];
    STATS[0] = select(0.0, rl[0] / count, count > 0.0);
    STATS[1] = rc[0];
    STATS[2] = count;
  }
}
