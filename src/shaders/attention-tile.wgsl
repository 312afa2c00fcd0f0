// Shared part of the dense attention-statistics kernels (prepended to attention-row-stats.wgsl and
// attention-matrix-view.wgsl by their dispatchers): bindings of the inputs and the micro-tile that
// computes, for a tile of BR query rows × BC keys, the raw exact scores and the raw linear-attention
// kernel values
//
//   s_ij = q_i·k_j / √d,        g_ij = φ(q_i)·φ(k_j)
//
// from rows padded to vec4 (Q, K: p.d4 vec4s; φ(Q), φ(K): p.m4 vec4s). Thread t: row group
// gr = t / TG holds 4 tile rows (their ids passed in by the kernel: any valid rows), key slot
// u = t % TG holds keys j0 + u + TG·x, x < RN (clamped to n−1; callers mask); results come back as
// one vec4 (4 rows) per key slot x. Each thread reads its rows and keys straight from storage, one
// vec4 column at a time, columns in order: no workgroup memory and no barrier (on a software
// adapter the two barriers per streamed chunk cost more than the products; profile-dense.mjs).
// Summation order is fixed (deterministic), the same as when the columns were streamed in chunks.

override WG: u32 = 64u;
override BR: u32 = 32u;        // rows per tile (multiple of 4)
override RN: u32 = 4u;         // keys per thread (1, 2, 4 or 8)
override RR: u32 = 4u;         // rows per thread: 4 (microTile), or 8 in the row normalizers
override RG: u32 = BR / RR;
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
  raw: u32,      // normalizers: 1 = also write (s_ij, g_ij) of every visited entry, 2 = s kept (see there)
  d: u32,        // head dimension (exactFromRaw)
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q4: array<vec4f>;
@group(0) @binding(2) var<storage, read> k4: array<vec4f>;
@group(0) @binding(3) var<storage, read> qf4: array<vec4f>;
@group(0) @binding(4) var<storage, read> kf4: array<vec4f>;

const NEG: f32 = -3.0e38; // stands in for −∞
const KL_FLOOR: f32 = 1e-30;

struct Micro {
  // s[x] / g[x]: rows 4gr … 4gr+3 against key j0 + u + TG·x (x < RN; the rest 0)
  s: array<vec4f, 8>,
  g: array<vec4f, 8>,
}

// vec4 i of the query side (Q or φ(Q)) and of the key side (K or φ(K)); `feat` is a constant at
// every call, so the branch folds away
fn rowAt(feat: bool, i: u32) -> vec4f {
  if (feat) { return qf4[i]; }
  return q4[i];
}

fn keyAt(feat: bool, i: u32) -> vec4f {
  if (feat) { return kf4[i]; }
  return k4[i];
}

// vec4s per row of the query/key side (Q, K or φ(Q), φ(K))
fn widthOf(feat: bool) -> u32 {
  if (feat) { return p.m4; }
  return p.d4;
}

// First vec4 of each of key slot u's 8 keys j0 + u + TG·x (clamped to n − 1; callers mask).
fn keyOffsets(j0: u32, u: u32, width: u32) -> array<u32, 8> {
  let last = p.n - 1u;
  return array<u32, 8>(
    min(j0 + u, last) * width,
    min(j0 + u + TG, last) * width,
    min(j0 + u + 2u * TG, last) * width,
    min(j0 + u + 3u * TG, last) * width,
    min(j0 + u + 4u * TG, last) * width,
    min(j0 + u + 5u * TG, last) * width,
    min(j0 + u + 6u * TG, last) * width,
    min(j0 + u + 7u * TG, last) * width,
  );
}

fn dots(feat: bool, j0: u32, t: u32, rows: vec4u) -> array<vec4f, 8> {
  let u = t % TG; // the key slot (the row group's rows come in `rows`)
  let width = widthOf(feat);
  let o = rows * vec4u(width);
  let ko = keyOffsets(j0, u, width);
  // Named accumulators (RN-guarded), not an array indexed by the key loop: SwiftShader keeps a
  // loop-indexed private array in memory and turns every update into a gather and a scatter.
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  var acc4 = vec4f(0.0);
  var acc5 = vec4f(0.0);
  var acc6 = vec4f(0.0);
  var acc7 = vec4f(0.0);
  for (var c = 0u; c < width; c++) {
    let a0 = rowAt(feat, o.x + c);
    let a1 = rowAt(feat, o.y + c);
    let a2 = rowAt(feat, o.z + c);
    let a3 = rowAt(feat, o.w + c);
    acc0 += dot4(a0, a1, a2, a3, keyAt(feat, ko[0] + c));
    if (RN > 1u) { acc1 += dot4(a0, a1, a2, a3, keyAt(feat, ko[1] + c)); }
    if (RN > 2u) {
      acc2 += dot4(a0, a1, a2, a3, keyAt(feat, ko[2] + c));
      acc3 += dot4(a0, a1, a2, a3, keyAt(feat, ko[3] + c));
    }
    if (RN > 4u) {
      acc4 += dot4(a0, a1, a2, a3, keyAt(feat, ko[4] + c));
      acc5 += dot4(a0, a1, a2, a3, keyAt(feat, ko[5] + c));
      acc6 += dot4(a0, a1, a2, a3, keyAt(feat, ko[6] + c));
      acc7 += dot4(a0, a1, a2, a3, keyAt(feat, ko[7] + c));
    }
  }
  return array<vec4f, 8>(acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7);
}

// Raw s (already multiplied by 1/√d) and g for this thread's 4 rows `rows` × RN keys.
fn microTile(j0: u32, t: u32, rows: vec4u) -> Micro {
  var m: Micro;
  let s = dots(false, j0, t, rows);
  let c = p.scale;
  m.s = array<vec4f, 8>(s[0] * c, s[1] * c, s[2] * c, s[3] * c, s[4] * c, s[5] * c, s[6] * c, s[7] * c);
  m.g = dots(true, j0, t, rows);
  return m;
}
