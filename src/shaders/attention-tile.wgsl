// Shared part of the dense attention-statistics kernels (prepended to attention-row-stats.wgsl and
// attention-matrix-view.wgsl by their dispatchers): bindings of the inputs and the micro-tile that
// computes, for a tile of BR query rows × BC keys, the raw exact scores and the raw linear-attention
// kernel values
//
//   s_ij = q_i·k_j / √d,        g_ij = φ(q_i)·φ(k_j)
//
// from rows padded to vec4 (Q, K: p.d4 vec4s; φ(Q), φ(K): p.m4 vec4s). The row ids of the tile are in
// `tileRows` (set by the kernel; any valid row), keys are j0 … j0+BC−1 (clamped to n−1; callers
// mask). Both products stream chunks of C4 vec4 columns of the rows and keys through workgroup
// memory. Thread t: row group gr = t / TG holds tile rows 4gr … 4gr+3, key slot u = t % TG holds
// keys u + TG·x, x < RN; results come back as one vec4 (4 rows) per key slot x.
// Summation order is fixed (deterministic).

override WG: u32 = 64u;
override BR: u32 = 32u;        // rows per tile (multiple of 4)
override RN: u32 = 4u;         // keys per thread (1, 2 or 4)
override C4: u32 = 4u;         // vec4 columns per streamed chunk
override RG: u32 = BR / 4u;
override TG: u32 = WG / RG;
override BC: u32 = RN * TG;    // keys per tile

struct Params {
  n: u32,
  causal: u32,
  gridX: u32,
  rowCount: u32, // full rows: number of requested rows
  scale: f32,    // 1/√d
  cells: u32,    // view: cells per side
  block: u32,    // view: block side b
  gc: u32,       // view: cells per side of one workgroup's cell block
  d4: u32,       // vec4s per Q/K row
  m4: u32,       // vec4s per feature row
  raw: u32,      // normalizers: 1 = also write (s_ij, g_ij) of every visited entry (see there)
  d: u32,        // head dimension (exactFromRaw)
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q4: array<vec4f>;
@group(0) @binding(2) var<storage, read> k4: array<vec4f>;
@group(0) @binding(3) var<storage, read> qf4: array<vec4f>;
@group(0) @binding(4) var<storage, read> kf4: array<vec4f>;

const NEG: f32 = -3.0e38; // stands in for −∞
const KL_FLOOR: f32 = 1e-30;

var<workgroup> tileRows: array<u32, BR>;
var<workgroup> rowChunk: array<vec4f, BR * C4>;
var<workgroup> keyChunk: array<vec4f, BC * C4>;

struct Micro {
  // s[x] / g[x]: rows 4gr … 4gr+3 against key j0 + u + TG·x
  s: array<vec4f, 4>,
  g: array<vec4f, 4>,
}

fn loadChunks(feat: bool, j0: u32, c0: u32, width: u32, t: u32) {
  for (var idx = t; idx < BR * C4; idx += WG) {
    let rr = idx / C4;
    let c = c0 + idx - rr * C4;
    var x = vec4f(0.0);
    if (c < width) {
      let row = tileRows[rr];
      if (feat) { x = qf4[row * p.m4 + c]; } else { x = q4[row * p.d4 + c]; }
    }
    rowChunk[idx] = x;
  }
  for (var idx = t; idx < BC * C4; idx += WG) {
    let jj = idx / C4;
    let c = c0 + idx - jj * C4;
    var x = vec4f(0.0);
    if (c < width) {
      let key = min(j0 + jj, p.n - 1u);
      if (feat) { x = kf4[key * p.m4 + c]; } else { x = k4[key * p.d4 + c]; }
    }
    keyChunk[idx] = x;
  }
}

fn dots(feat: bool, j0: u32, t: u32) -> array<vec4f, 4> {
  let gr = t / TG;
  let u = t - gr * TG;
  // Named accumulators (RN-guarded), not an array indexed by the key loop: SwiftShader keeps a
  // loop-indexed private array in memory and turns every update into a gather and a scatter.
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  var width = p.d4;
  if (feat) { width = p.m4; }
  for (var c0 = 0u; c0 < width; c0 += C4) {
    workgroupBarrier();
    loadChunks(feat, j0, c0, width, t);
    workgroupBarrier();
    let cEnd = min(C4, width - c0);
    for (var c = 0u; c < cEnd; c++) {
      let a0 = rowChunk[(4u * gr) * C4 + c];
      let a1 = rowChunk[(4u * gr + 1u) * C4 + c];
      let a2 = rowChunk[(4u * gr + 2u) * C4 + c];
      let a3 = rowChunk[(4u * gr + 3u) * C4 + c];
      acc0 += dot4(a0, a1, a2, a3, keyChunk[u * C4 + c]);
      if (RN > 1u) { acc1 += dot4(a0, a1, a2, a3, keyChunk[(u + TG) * C4 + c]); }
      if (RN > 2u) {
        acc2 += dot4(a0, a1, a2, a3, keyChunk[(u + 2u * TG) * C4 + c]);
        acc3 += dot4(a0, a1, a2, a3, keyChunk[(u + 3u * TG) * C4 + c]);
      }
    }
  }
  return array<vec4f, 4>(acc0, acc1, acc2, acc3);
}

// Raw s (already multiplied by 1/√d) and g for this thread's 4 rows × RN keys. Uniform control flow.
fn microTile(j0: u32, t: u32) -> Micro {
  var m: Micro;
  m.s = dots(false, j0, t);
  for (var x = 0u; x < 4u; x++) { m.s[x] *= p.scale; }
  m.g = dots(true, j0, t);
  return m;
}
