// Tiled general matrix product on strided row-major f32 views (CPU twin: src/core/matmul.ts
// `matmulInto`; dispatcher: src/gpu/matmul.ts).
//
//   C[i, j] = act( Σ_k A[i, k] · B[k, j] ) + (accumulate ? C[i, j] : 0)
//   A[i, k] = a[off_a + i·lda + k],  B[k, j] = b[off_b + k·ldb + j],  C[i, j] = c[off_c + i·ldc + j]
//   act = ReLU when relu = 1, else the identity.
//   flags bit 0 (trans_a): A[i, k] = a[off_a + k·lda + i] (A is read as the transpose of a stored k × m view);
//   flags bit 1 (trans_b): B[k, j] = b[off_b + j·ldb + k] — the trainer's dW = xᵀ·dy and dx = dy·Wᵀ
//   (src/gpu/train/linear.ts). The tile loads then stride along rows instead of k; results are the same.
//
// Thread mapping: one workgroup computes a 64 × 64 tile of C with 16 × 16 invocations; invocation
// (x, y) owns the 4 × 4 micro-tile of rows 4y … 4y+3 and columns 4x … 4x+3, held in four vec4
// accumulators. K is streamed in steps of 16: each step the 256 invocations load a 64 × 16 tile of
// A (coalesced along k, stored transposed so a row quad is one vec4) and a 16 × 64 tile of B into
// workgroup memory (zero outside the matrix: every load is bounds-guarded, so any m, n, k works),
// barrier, then do 16 rank-1 updates of four vec4 FMAs each, barrier. Sums are in f32.
//
// Dispatch: (⌈n / 64⌉, ⌈m / 64⌉, 1) workgroups of @workgroup_size(16, 16).

struct Params {
  m: u32, n: u32, k: u32, lda: u32,
  ldb: u32, ldc: u32, off_a: u32, off_b: u32,
  off_c: u32, accumulate: u32, relu: u32, flags: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;

const TM: u32 = 64u;
const TN: u32 = 64u;
const TK: u32 = 16u;

// As[kk * 16 + r4] = A[row0 + 4·r4 … +3, k0 + kk];  Bs[kk * 16 + c4] = B[k0 + kk, col0 + 4·c4 … +3]
var<workgroup> As: array<vec4<f32>, 256>;
var<workgroup> Bs: array<vec4<f32>, 256>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let row0 = wg.y * TM;
  let col0 = wg.x * TN;
  // Four named accumulators, not an array: the epilogue's loop-indexed reads would keep an array
  // in memory (SwiftShader), so every FMA of the main loop would go through a load and a store.
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);

  let tiles = (P.k + TK - 1u) / TK;
  for (var t = 0u; t < tiles; t++) {
    let k0 = t * TK;
    for (var e = 0u; e < 4u; e++) {
      let idx = li + e * 256u; // 0 … 1023
      // A tile, 64 rows × 16 k, read along k
      let ar = idx / TK;
      let ak = idx % TK;
      let gr = row0 + ar;
      let gk = k0 + ak;
      var av = 0.0;
      if (gr < P.m && gk < P.k) {
        if ((P.flags & 1u) != 0u) { av = A[P.off_a + gk * P.lda + gr]; } else { av = A[P.off_a + gr * P.lda + gk]; }
      }
      As[ak * 16u + ar / 4u][ar % 4u] = av;
      // B tile, 16 k × 64 columns, read along the columns
      let bk = idx / TN;
      let bc = idx % TN;
      let gk2 = k0 + bk;
      let gc = col0 + bc;
      var bv = 0.0;
      if (gk2 < P.k && gc < P.n) {
        if ((P.flags & 2u) != 0u) { bv = B[P.off_b + gc * P.ldb + gk2]; } else { bv = B[P.off_b + gk2 * P.ldb + gc]; }
      }
      Bs[bk * 16u + bc / 4u][bc % 4u] = bv;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < TK; kk++) {
      let a = As[kk * 16u + lid.y];
      let b = Bs[kk * 16u + lid.x];
      acc0 = fma(vec4<f32>(a.x), b, acc0);
      acc1 = fma(vec4<f32>(a.y), b, acc1);
      acc2 = fma(vec4<f32>(a.z), b, acc2);
      acc3 = fma(vec4<f32>(a.w), b, acc3);
    }
    workgroupBarrier();
  }

  store_row(row0 + lid.y * 4u, col0 + lid.x * 4u, acc0);
  store_row(row0 + lid.y * 4u + 1u, col0 + lid.x * 4u, acc1);
  store_row(row0 + lid.y * 4u + 2u, col0 + lid.x * 4u, acc2);
  store_row(row0 + lid.y * 4u + 3u, col0 + lid.x * 4u, acc3);
}

/// Columns c0 .. c0+3 (those < n) of row r (when < m) of C: act, accumulate, store.
fn store_row(r: u32, c0: u32, acc: vec4<f32>) {
  if (r >= P.m) { return; }
  for (var j = 0u; j < 4u; j++) {
    let c = c0 + j;
    if (c >= P.n) { break; }
    var v = acc[j];
    if (P.relu == 1u) { v = max(v, 0.0); }
    let o = P.off_c + r * P.ldc + c;
    if (P.accumulate == 1u) { v += C[o]; }
    C[o] = v;
  }
}
