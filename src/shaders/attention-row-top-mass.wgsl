// Top-k mass of attention rows (the sparsity panel's curves) without the rows leaving the GPU:
// for every slot s (0 the exact A, v + 1 variant v's Â) and listed row t, with L = ⌊log₂ n⌋ + 1 levels,
//
//   mass[(s·R + t)·L + l] = Σ of the 2^l largest entries of row t among the keys it sees
//                           (len = n, causal: r_t + 1), the whole row's Σ once 2^l ≥ len.
//
// CPU twin: core/sweeps.ts topMassAt (sorts in f64; here nested selection in f32).
// Input: the rows as attention-row-list-batch.wgsl rowReduce writes them (out[rowsBase + (s·R + t)·n + j]).
// The row's seen entries are copied into a work row (the batch's dots buffer, dead after the reduce, read as
// f32: p.stride floats per row, stride ≥ n), then Wirth's selection (Hoare partition around a median of
// three) puts the k largest first for k = the largest power of two below len, then for k/2 inside those,
// and so on: n + n/2 + … expected work per row instead of a sort's n log n, and the masses are the sums of
// the nested blocks [0, 1), [1, 2), [2, 4), … in order.
//
// Thread mapping: one invocation per (slot, row), index s·R + t, serial over its row — no workgroup memory or
// barriers (SwiftShader runs those as coroutine switches, far dearer than a row's serial loop; on a real GPU
// the (V + 1)·R rows of a batch are few hundred threads of a few thousand steps). Workgroups of 16, as the
// reduce. Dispatch: ⌈(V + 1)·R / 16⌉.

struct Params {
  n: u32,
  causal: u32,
  rowCount: u32, // R
  slots: u32,    // V + 1
  levels: u32,   // L
  rowsBase: u32, // first float of the rows in out
  massBase: u32, // first float of the masses in out
  stride: u32,   // floats per work row
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> rowList: array<u32>;
@group(0) @binding(2) var<storage, read_write> outBuf: array<f32>;
@group(0) @binding(3) var<storage, read_write> work: array<f32>;

const WG: u32 = 16u;

fn median3(a: f32, b: f32, c: f32) -> f32 {
  return max(min(a, b), min(max(a, b), c));
}

/// Reorders work[base + 0 … count) so that its first k entries are the k largest (1 ≤ k < count).
/// Wirth's FIND, descending: the pivot is a value of the range, so each scan stops inside it (the bounds
/// are kept anyway: a NaN compares false and only stops scans early).
fn selectTop(base: u32, count: u32, k: u32) {
  var l = 0i;
  var r = i32(count) - 1i;
  let kk = i32(k) - 1i;
  while (l < r) {
    let x = median3(work[base + u32(l)], work[base + u32(kk)], work[base + u32(r)]);
    var i = l;
    var j = r;
    loop {
      while (i < r && work[base + u32(i)] > x) { i++; }
      while (j > l && x > work[base + u32(j)]) { j--; }
      if (i <= j) {
        let tmp = work[base + u32(i)];
        work[base + u32(i)] = work[base + u32(j)];
        work[base + u32(j)] = tmp;
        i++;
        j--;
      }
      if (i > j) { break; }
    }
    if (j < kk) { l = i; }
    if (kk < i) { r = j; }
  }
}

@compute @workgroup_size(WG)
fn rowTopMass(@builtin(global_invocation_id) gid: vec3u) {
  let idx = gid.x;
  let R = p.rowCount;
  if (idx >= p.slots * R) { return; }
  let t = idx % R;
  var len = p.n;
  if (p.causal != 0u) { len = min(p.n, rowList[t] + 1u); }
  let src = p.rowsBase + idx * p.n;
  let base = idx * p.stride;
  var total = 0.0;
  for (var j = 0u; j < len; j++) {
    let a = outBuf[src + j];
    work[base + j] = a;
    total += a;
  }
  // the largest power of two below len, then each half of it
  if (len >= 2u) {
    var k = 1u << firstLeadingBit(len - 1u);
    var lead = len;
    while (k >= 1u) {
      selectTop(base, lead, k);
      lead = k;
      k = k >> 1u;
    }
  }
  var mass = 0.0;
  var at = 0u;
  let o = p.massBase + idx * p.levels;
  for (var l = 0u; l < p.levels; l++) {
    let k = 1u << l;
    if (k >= len) {
      outBuf[o + l] = total;
    } else {
      for (; at < k; at++) { mass += work[base + at]; }
      outBuf[o + l] = mass;
    }
  }
}
