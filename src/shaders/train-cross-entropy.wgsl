// Masked softmax cross-entropy with its gradient and the step's loss / correct / count reduction
// (dispatcher src/gpu/train/cross-entropy.ts; CPU twin src/core/train/cross-entropy.ts).
//
//   count:  stats[2] = count = Σ_r mask_r
//   rows:   per row r with mask_r = 1: lse_r = max_v z_rv + log Σ_v exp(z_rv − max), loss_r = lse_r − z_r,target,
//           correct_r = [argmax_v z_rv = target_r] (ties → the lowest index),
//           dz_rv = mask_r·(softmax(z_r)_v − [v = target_r]) / count   (0 when count = 0)
//   reduce: stats[0] = Σ_r loss_r / count (0 when count = 0), stats[1] = Σ_r correct_r
//
// Thread mapping: count and reduce one workgroup of 16 — invocation t sums rows t, t + 16, … in
// order, then a fixed-order tree in workgroup memory; rows one invocation per row walking its V
// logits serially (no barriers: on SwiftShader a workgroup per row with tree reductions cost more
// than the row's arithmetic). Deterministic, no atomics.
// Dispatch: count 1 workgroup, rows ⌈rows / 64⌉ folded into (nx, ny), reduce 1.

struct Params { rows: u32, vocab: u32, nx: u32, _p: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> Z: array<f32>;
@group(0) @binding(2) var<storage, read> TGT: array<i32>;
@group(0) @binding(3) var<storage, read> MASK: array<u32>;
@group(0) @binding(4) var<storage, read_write> DZ: array<f32>;
// per row: [loss_r, correct_r]
@group(0) @binding(5) var<storage, read_write> ROW: array<f32>;
@group(0) @binding(6) var<storage, read_write> STATS: array<f32>;

/// Invocations of `count` and `reduce`: 16, so the tree takes 4 barriers, not 6 (on SwiftShader a
/// barrier switches every SIMD group of the workgroup: with 64 invocations both took ~2× as long).
const RW: u32 = 16u;
var<workgroup> r0: array<f32, 16>;
var<workgroup> r1: array<f32, 16>;

fn tree(t: u32) {
  for (var s = RW / 2u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) {
      r0[t] += r0[t + s];
      r1[t] += r1[t + s];
    }
  }
  workgroupBarrier();
}

@compute @workgroup_size(16)
fn count(@builtin(local_invocation_id) lid: vec3<u32>) {
  let t = lid.x;
  var n = 0.0;
  for (var i = t; i < P.rows; i += RW) { n += select(0.0, 1.0, MASK[i] != 0u); }
  r0[t] = n;
  r1[t] = 0.0;
  tree(t);
  if (t == 0u) { STATS[2] = r0[0]; }
}

@compute @workgroup_size(64)
fn rows(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (r >= P.rows) { return; }
  let base = r * P.vocab;
  let count = STATS[2];
  let tg = TGT[r];
  if (MASK[r] == 0u || count <= 0.0) {
    // a row outside the loss: its gradient is 0·(p − onehot), written without the softmax (−0 at
    // the target, as 0·(p − 1) is, +0 elsewhere); MQAR's context rows are half of every batch
    for (var j = 0u; j < P.vocab; j++) { DZ[base + j] = select(0.0, -0.0, i32(j) == tg); }
    ROW[2u * r] = 0.0;
    ROW[2u * r + 1u] = 0.0;
    return;
  }
  var zmax = -3.4e38;
  var amax = 0u;
  for (var j = 0u; j < P.vocab; j++) {
    let z = Z[base + j];
    if (z > zmax) {
      zmax = z;
      amax = j;
    }
  }
  var sum = 0.0;
  for (var j = 0u; j < P.vocab; j++) { sum += exp(Z[base + j] - zmax); }
  let scale = 1.0 / count;
  for (var j = 0u; j < P.vocab; j++) {
    let p = exp(Z[base + j] - zmax) / sum;
    DZ[base + j] = scale * (p - select(0.0, 1.0, i32(j) == tg));
  }
  var loss = 0.0;
  var ok = 0.0;
  if (tg >= 0 && u32(tg) < P.vocab) {
    loss = zmax + log(sum) - Z[base + u32(tg)];
    ok = select(0.0, 1.0, amax == u32(tg));
  }
  ROW[2u * r] = loss;
  ROW[2u * r + 1u] = ok;
}

@compute @workgroup_size(16)
fn reduce(@builtin(local_invocation_id) lid: vec3<u32>) {
  let t = lid.x;
  var l = 0.0;
  var c = 0.0;
  for (var i = t; i < P.rows; i += RW) {
    l += ROW[2u * i];
    c += ROW[2u * i + 1u];
  }
  r0[t] = l;
  r1[t] = c;
  tree(t);
  if (t == 0u) {
    let count = STATS[2];
    STATS[0] = select(0.0, r0[0] / count, count > 0.0);
    STATS[1] = r1[0];
  }
}
