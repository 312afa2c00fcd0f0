// Top-k mass of attention rows (the sparsity panel's curves) without the rows leaving the GPU:
// for every slot s (0 the exact A, v + 1 variant v's Â) and listed row t, with L = ⌊log₂ n⌋ + 1 levels,
//
//   mass[(s·R + t)·L + l] = Σ of the 2^l largest entries of row t among the keys it sees
//                           (len = n, causal: r_t + 1), the whole row's Σ once 2^l ≥ len.
//
// CPU twin: core/sweeps.ts topMassAt (sorts in f64; here nested selection in f32).
// Input: the rows as attention-row-list-batch.wgsl rowReduce writes them (out[rowsBase + (s·R + t)·n + j]).
// The row's seen entries are copied into a work row (the batch's dots buffer, dead after the reduce, read as
// f32: p.stride floats per row, stride ≥ n), then a selection (three-way partitions around a median of
// three, selectTop) puts the k largest first for k = the largest power of two below len, then for k/2 inside those,
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
/// Branch-free three-way partitions (Lomuto: a select-swap per entry, no data-dependent inner loops)
/// around a median of three: SwiftShader runs 4 invocations in lockstep, and Hoare's scans stopping at
/// each lane's own entries made every lane wait for the slowest (Wirth's FIND took 16 ms of rowEntropies'
/// 768 rows at n = 256, these partitions 10 ms). After [l, i) > x, [i, e) == x: k inside either ends it.
/// The pivot is a value of the range, so [i, e) is never empty and each round shrinks the range; only a
/// NaN pivot (NaN rows) leaves it empty, and then the selection stops rather than spin.
fn selectTop(base: u32, count: u32, k: u32) {
  var l = base;
  var r = base + count - 1u;
  let kk = base + k - 1u;
  while (l < r) {
    let x = median3(work[l], work[(l + r) >> 1u], work[r]);
    var i = l;
    for (var j = l; j <= r; j++) {
      let v = work[j];
      let wi = work[i];
      let c = v > x;
      work[j] = select(v, wi, c);
      work[i] = select(wi, v, c);
      i += u32(c);
    }
    if (kk < i) {
      r = i - 1u;
      continue;
    }
    var e = i;
    for (var j = i; j <= r; j++) {
      let v = work[j];
      let we = work[e];
      let c = v == x;
      work[j] = select(v, we, c);
      work[e] = select(we, v, c);
      e += u32(c);
    }
    if (kk < e || e == i) { return; }
    l = e;
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
