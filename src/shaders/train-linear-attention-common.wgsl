// Shared declarations of the trainer's linear attention kernels (prepended, after
// train-attention-rows.wgsl, to train-linear-attention-{state,forward,backward}.wgsl by
// src/gpu/train/linear-attention.ts).
//
// Layouts: φq, φk (B·L)×(H·F) dense, head h in columns h·F … (Φ[(row·H + h)·F + f], row = b·L + t);
// v, out, dOut, dv strided views (X[off + row·ld + h·dh + c]); den and the per-row scalars (B·L)×H
// (den[row·H + h]); G = [dOut/den, −dOut·out/den] (B·L)×H×(dh + 1); states St (B·H)×nS×F×(dh + 1)
// (St[((bh·nS + s)·F + f)·nc + c], nc = dh + 1, column dh the normalizer's z).
// mode 0: bidirectional (one state, the whole sequence); 1: causal (states per chunk of `chunk`
// rows: forward the exclusive prefix, backward the exclusive suffix; inside the chunk densely);
// 2: local window (dense over |i − j| < window, causal: i − window < j ≤ i; no state).
// span: the row length of the blocked kernels' dense scratch rows (a 4-row block's union of
// dense ranges: mode 1 a chunk, mode 2 at most 2·window + 2, causal window + 3; see blockSpan).

struct Params {
  B: u32, L: u32, H: u32, F: u32,
  dh: u32, nc: u32, mode: u32, causal: u32,
  window: u32, chunk: u32, nS: u32, gx: u32,
  smode: u32, y_off: u32, y_ld: u32, y_hs: u32,
  y_ones: u32, off_v: u32, ld_v: u32, off_o: u32,
  ld_o: u32, off_do: u32, ld_do: u32, off_dv: u32,
  ld_dv: u32, span: u32, _p1: u32, _p2: u32,
}

@group(0) @binding(0) var<uniform> U: Params;

const DELTA: f32 = 1e-6;

/// Dense key range [lo, hi) of query row i (mode 1: the rows of i's chunk up to i).
fn row_range(i: u32) -> vec2<u32> {
  if (U.mode == 0u) { return vec2<u32>(0u, 0u); }
  if (U.mode == 1u) { return vec2<u32>((i / U.chunk) * U.chunk, i + 1u); }
  var lo = 0u;
  if (i + 1u > U.window) { lo = i + 1u - U.window; }
  var hi = min(U.L, i + U.window);
  if (U.causal == 1u) { hi = i + 1u; }
  return vec2<u32>(lo, hi);
}

/// Dense query range [lo, hi) of key row j (mode 1: the rows of j's chunk from j on).
fn col_range(j: u32) -> vec2<u32> {
  if (U.mode == 0u) { return vec2<u32>(0u, 0u); }
  if (U.mode == 1u) { return vec2<u32>(j, min(U.L, (j / U.chunk + 1u) * U.chunk)); }
  var lo = j;
  if (U.causal == 0u && j + 1u > U.window) { lo = j + 1u - U.window; }
  if (U.causal == 0u && j + 1u <= U.window) { lo = 0u; }
  return vec2<u32>(lo, min(U.L, j + U.window));
}

/// The dense ranges [lo, hi) of 4 rows t (`keys`: of 4 keys, col_range) of a blocked kernel's
/// block, empty in mode 0; x, y: the block's union [min lo, max hi).
struct BlockRanges {
  lo: vec4<u32>,
  hi: vec4<u32>,
  x: u32,
  y: u32,
}

fn block_ranges(t: vec4<u32>, keys: bool) -> BlockRanges {
  var lo = vec4<u32>(0u);
  var hi = vec4<u32>(0u);
  if (U.mode != 0u) {
    for (var r = 0u; r < 4u; r++) {
      var g = row_range(t[r]);
      if (keys) { g = col_range(t[r]); }
      lo[r] = g.x;
      hi[r] = g.y;
    }
  }
  return BlockRanges(lo, hi, min(min(lo.x, lo.y), min(lo.z, lo.w)), max(max(hi.x, hi.y), max(hi.z, hi.w)));
}

/// The state index of row t (mode 0: the one state; mode 1: its chunk).
fn state_of(t: u32) -> u32 {
  if (U.mode == 1u) { return t / U.chunk; }
  return 0u;
}

/// Index of feature 0 of head h in row t of w's sequence in φq / φk: ((b·L + t)·H + h)·F.
fn phi_at(w: AttnRow, t: u32) -> u32 { return ((w.b * U.L + t) * U.H + w.h) * U.F; }

/// Index of G's entry 0 for head h in row t of w's sequence: ((b·L + t)·H + h)·(dh + 1).
fn g_at(w: AttnRow, t: u32) -> u32 { return ((w.b * U.L + t) * U.H + w.h) * U.nc; }

/// Index of the state row t reads ([S | z] at f = 0, c = 0): (bh·nS + state_of(t))·F·(dh + 1).
fn state_at(w: AttnRow, t: u32) -> u32 { return (w.bh * U.nS + state_of(t)) * U.F * U.nc; }
