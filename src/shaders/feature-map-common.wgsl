// feature-map-common.wgsl — the feature maps φ of linear attention, shared by every kernel that
// needs features (favor-features.wgsl materializes them; performer-bidirectional.wgsl and
// performer-causal.wgsl compute them on the fly). The dispatcher prepends this file to each of
// those sources, so a feature computed on the fly is produced by exactly the same code (same
// projection loop, same summation order, same formula) as a materialized one: bit for bit equal
// (e2e/performer-kernels.spec.mjs checks it for the key side of the fused bidirectional kernel).
// The map is selected by the uniform fm.kind, so one pipeline per entry point serves all maps.
// The map codes FM_<NAME> (fm.kind), FM_RELU_EPS and the flags fm_uses_w, fm_uses_norm,
// fm_has_stats, fm_row_softmax are not in this file: src/gpu/feature-map-wgsl.ts generates them from
// the records of src/core/feature-map-specs.ts and the source assembly (favor-dispatch.ts) prepends
// them. Each map has its `case FM_<NAME>` in fm_feature or fm_feature_at; an unknown code gives NaN.
//
// Formulas (ARCHITECTURE.md; CPU twin src/core/feature-maps.ts). Inputs are scaled in-kernel:
// x = q·d^{-1/4}, y = k·d^{-1/4}. u_r = ω_r·x (ω_r = row r of W, m×d), hn = ‖x‖²/2, ε = fm.eps
// (0 for the stabilizer 'shift', 1e-6 for 'ref', the reference implementation's):
//   0 positive       ratio·(exp(u_r − (hn + shift)) + ε)                    ratio = m^{-1/2}
//   1 hyperbolic     ratio·(exp(±u_r − (hn + shift)) + ε), [+u | −u] blocks ratio = (2m)^{-1/2}
//   2 trig           ratio·exp(hn)·[sin u_r | cos u_r]                        ratio = m^{-1/2}
//   3 relu           max(ratio·u_r, 0) + 0.001                                ratio = m^{-1/2}
//   4 elu1           elu(x_c) + 1                     (no projection: "u_c" = x_c, d features)
//   5 exp            exp(u_r − shift) + ε
//   6 double-softmax exp(x_c − shift)/aux             (no projection, d features; causal keys:
//                    shift = one max over all keys and coordinates, aux = 1 — fm.causal_keys)
//   7 oprf           ratio·(exp(A‖ω_r‖² + √(1−4A)·u_r − (hn + shift)) + ε)   ratio = m^{-1/2}, A = fm.map_a
//                    (FAVOR++, Likhosherstov et al. 2022; A ≤ 0 chosen from Q and K on the host —
//                    causal: a fixed A, src/core/feature-maps-beyond.ts; shift = max_r of the
//                    exponent, as for positive)
//   8 taylor2        [1, x_c, x_a·x_b/√2] at feature 0, 1 + c, 1 + d + a·d + b (Based; no projection,
//                    1 + d + d² features; read from the inputs by fm_feature_at, u unused)
//   9 cosformer      max(x_c, 0)·[cos θ | sin θ], θ = π·row/(2n) (cosFormer; no projection, 2d features)
//  oprf, taylor2 and cosformer go through fm_feature_at, which knows the tile row's side, matrix
//  row and feature column. (The numbers are the current codes: the map's index in FEATURE_MAPS.)
//  10 hedgehog       exp(±u_r − shift_b)/aux_b, [+u | −u] blocks: softmax(Wx) ‖ softmax(−Wx) with the
//                    fitted W (src/core/hedgehog.ts); per-row stats for BOTH sides, two per row
//                    (fm_hh_stats): [2·row + b] = (max_r ±u_r, Σ_r exp(±u_r − max)), b = 0 (+), 1 (−),
//                    written by hh_row_stats in favor-features.wgsl (a per-thread loop over the m u's).
// (shift, aux) — the stabilizers — come from stats buffers written by favor-features.wgsl:
//   query side: fm_qstats[row]  = (max_r u_r | max_r |u_r| (hyperbolic) | max_c x_c, Σ_c exp(x_c − max))
//   key side:   fm_kstats[0]    = (max over all keys and r of u (or |u|), 1) — causal under ε ('ref'):
//                                 key 0's max only, the one key every causal row sees
//               fm_kstats[c]    = (max_j y_jc, Σ_j exp(y_jc − max))  for double-softmax (per column);
//                                 causal (fm.causal_keys = 1): fm_kstats[0] = (max_{j,c} y_jc, 1)
// Maps without a stabilizer (trig, relu, elu1) never read the stats buffers.
//
// Feature layout: m' = nb·nu features, nu = m (projection maps) or d; the two-block maps
// (hyperbolic, trig) put block b ∈ {0, 1} at features b·nu + r.
//
// Bindings owned by this snippet (group 0): 0 uniform FmParams, 1 Q (n×d), 2 K (n×d), 3 W (m×d),
// 4 query stats (n × vec2), 5 key stats (vec2; 1 or d entries). Kernels use bindings ≥ 6.
// Workgroup memory owned by this snippet: fm_a (free scratch for the callers: V and state tiles),
// fm_phi (the φ tile). Every kernel using fm_phi_tile runs FM_WG = 256 invocations per workgroup.
//
// Projection (fm_project): a tile of R rows × C u columns; each invocation owns a 2×2 block of u
// (rows ra, ra + R/2 × columns ca, ca + C/2), reads its two input rows and two W rows straight from
// the storage buffers and adds one coordinate at a time in increasing order, with the two rows'
// ‖x‖² alongside: no workgroup memory, no barrier (fm_phi_tile2 keeps one barrier per tile, before
// it overwrites fm_phi). Tile rows may come from Q and K at once (FmRows), which causal_gram uses to
// build φ(Q) and φ(K) of a chunk in one pass. favor-features.wgsl's row_stats / features and
// hh_row_stats compute the same sums per invocation (same order, same bits).

const FM_WG: u32 = 256u;
const FM_A_VEC4: u32 = 576u;     // fm_a size: 2304 floats (callers' V / state tiles)
const FM_PHI_SIZE: u32 = 1152u;  // φ tile: R ≤ 128 rows, even; C ≤ 64 u columns, even; (R/2)·(C/2) ≤ 256

const FM_QUERY: u32 = 0u;
const FM_KEY: u32 = 1u;
const FM_LOWEST: f32 = -0x1.fffffep+127f;


struct FmParams {
  n: u32,        // rows of Q, K, V
  d: u32,        // head dimension
  nu: u32,       // u columns: m for projection maps, d otherwise
  mp: u32,       // feature dimension m' = nb · nu
  scale: f32,    // d^{-1/4}
  ratio: f32,    // m^{-1/2}, (2m)^{-1/2} or 1 (see above)
  kind: u32,     // feature map code FM_<NAME> (generated; uniform, so one pipeline serves every map)
  nb: u32,       // blocks per u column: 2 (hyperbolic, trig) or 1
  chunk: u32,    // kernel-specific: rows per chunk
  nchunks: u32,  // kernel-specific: number of chunks
  a0: u32,       // kernel-specific
  a1: u32,
  eps: f32,      // ε added to the exponential features: 0 ('shift') or 1e-6 ('ref')
  map_a: f32,    // OPRF's A (FM_OPRF); 0 otherwise
  causal_keys: u32, // 1: the causal variant of the key statistics (see above), 0: bidirectional
  phi_direct: u32, // 1: performer-exp-gemm.wgsl's U holds φ itself (materialized by favor-features.wgsl): φ = u
}

@group(0) @binding(0) var<uniform> fm: FmParams;
@group(0) @binding(1) var<storage, read> fm_q: array<f32>;
@group(0) @binding(2) var<storage, read> fm_k: array<f32>;
@group(0) @binding(3) var<storage, read> fm_w: array<f32>;
@group(0) @binding(4) var<storage, read> fm_qstats: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read> fm_kstats: array<vec2<f32>>;

var<workgroup> fm_a: array<vec4<f32>, FM_A_VEC4>;
var<workgroup> fm_phi: array<f32, FM_PHI_SIZE>;

/// Scaled input coordinate x = q·d^{-1/4} (side FM_QUERY) or y = k·d^{-1/4} (FM_KEY).
fn fm_input(side: u32, idx: u32) -> f32 {
  if (side == FM_QUERY) {
    return fm_q[idx] * fm.scale;
  }
  return fm_k[idx] * fm.scale;
}

/// Tile rows: rows r < split are rows row0 + r of side0's matrix, rows r ≥ split are rows
/// row1 + (r − split) of side1's (so one tile can hold query and key rows: causal_gram).
struct FmRows {
  side0: u32,
  row0: u32,
  split: u32,
  side1: u32,
  row1: u32,
}

/// fm_project's result: u of the four slots, hn = ‖x‖²/2 of the invocation's two rows.
struct FmU {
  u: vec4<f32>,
  hn: vec2<f32>,
}

fn fm_rows(side: u32, row0: u32) -> FmRows {
  return FmRows(side, row0, 0xffffffffu, side, row0);
}

/// (side, matrix row) of tile row r.
fn fm_row_of(t: FmRows, r: u32) -> vec2<u32> {
  if (r < t.split) {
    return vec2<u32>(t.side0, t.row0 + r);
  }
  return vec2<u32>(t.side1, t.row1 + (r - t.split));
}

/// Which entry of the R×C tile slot t ∈ 0..3 of invocation lid holds: invocation lid < (R/2)·(C/2)
/// owns the 2×2 block rows {br, br + R/2} × columns {bc, bc + C/2}, br = lid / (C/2),
/// bc = lid % (C/2); slot t = 2·(row half) + (column half). Returns (row, column, valid).
fn fm_slot(lid: u32, t: u32, R: u32, C: u32) -> vec3<u32> {
  let c2 = C / 2u;
  let r2 = R / 2u;
  let br = lid / c2;
  let bc = lid % c2;
  return vec3<u32>(br + (t / 2u) * r2, bc + (t % 2u) * c2, select(0u, 1u, lid < r2 * c2));
}

/// u values of the R×C tile (tile rows `rows`, u columns u0..) in this invocation's four slots (see
/// fm_slot), with hn = ‖x‖²/2 of its two rows (hn.x: slots 0, 1; hn.y: slots 2, 3). Each
/// invocation reads its two input rows and two W rows straight from the storage buffers and adds
/// one coordinate at a time over c = 0, 1, …, d−1 (u = u + x_c·w_c, ‖x‖² likewise), so every
/// kernel (and favor-features.wgsl's per-row loops) computes the same bits for the same entry. No
/// workgroup memory and no barrier (SwiftShader runs a barrier as a switch through every SIMD
/// group of the workgroup: the slab staging this replaced cost two per 16 coordinates). Entries
/// outside the matrix (row ≥ n, column ≥ nu) and the slots of an invocation past (R/2)·(C/2) hold
/// unspecified values: the callers mask them (fm_phi_tile2 writes exact zeros there).
fn fm_project(rows: FmRows, u0: u32, R: u32, C: u32, lid: u32) -> FmU {
  var acc = vec4<f32>(0.0);
  let n = fm.n;
  let d = fm.d;
  let c2 = C / 2u;
  let r2 = R / 2u;
  let owns_block = lid < r2 * c2;
  let ra = lid / c2;
  let ca = lid % c2;
  let sa = fm_row_of(rows, ra);
  let sb = fm_row_of(rows, ra + r2);
  let va = owns_block && sa.y < n;
  let vb = owns_block && sb.y < n;
  if (fm_uses_w()) {
    let wa = u0 + ca;
    let wb = wa + c2;
    // A row or column outside the matrix reads row 0 instead: its u is not used (callers mask it).
    let oa = select(0u, sa.y * d, va);
    let ob = select(0u, sb.y * d, vb);
    let owa = select(0u, wa * d, wa < fm.nu);
    let owb = select(0u, wb * d, wb < fm.nu);
    var u00 = 0.0;
    var u01 = 0.0;
    var u10 = 0.0;
    var u11 = 0.0;
    var na = 0.0;
    var nb = 0.0;
    for (var c = 0u; c < d; c++) {
      let xa = fm_input(sa.x, oa + c);
      let xb = fm_input(sb.x, ob + c);
      let w0 = fm_w[owa + c];
      let w1 = fm_w[owb + c];
      u00 = u00 + xa * w0;
      u01 = u01 + xa * w1;
      u10 = u10 + xb * w0;
      u11 = u11 + xb * w1;
      na = na + xa * xa;
      nb = nb + xb * xb;
    }
    return FmU(vec4<f32>(u00, u01, u10, u11), vec2<f32>(0.5 * na, 0.5 * nb));
  }
  // No projection: u_c = x_c.
  if (owns_block) {
    for (var t = 0u; t < 4u; t++) {
      let sr = select(sa, sb, t >= 2u);
      let col = u0 + ca + select(0u, c2, (t & 1u) == 1u);
      if (sr.y < n && col < d) {
        acc[t] = fm_input(sr.x, sr.y * d + col);
      }
    }
  }
  return FmU(acc, vec2<f32>(0.0));
}

/// φ value of block b for projection u (or coordinate x_c), half squared norm hn, stabilizers:
/// the position-free maps (fm_feature_at takes the others first). An unknown code is NaN (poison),
/// never another map's numbers.
fn fm_feature(u: f32, b: u32, hn: f32, shift: f32, aux: f32) -> f32 {
  switch (fm.kind) {
    case FM_POSITIVE: {
      return fm.ratio * (exp(u - (hn + shift)) + fm.eps);
    }
    case FM_HYPERBOLIC: {
      let s = select(u, -u, b == 1u);
      return fm.ratio * (exp(s - (hn + shift)) + fm.eps);
    }
    case FM_TRIG: {
      let t = fm_trig(u, hn);
      return select(t.x, t.y, b == 1u);
    }
    case FM_RELU: {
      return fm_relu(u);
    }
    case FM_ELU1: {
      return fm_elu1(u);
    }
    case FM_EXP: {
      return exp(u - shift) + fm.eps;
    }
    case FM_DSOFTMAX: {
      return exp(u - shift) / aux;
    }
    case FM_HEDGEHOG: { // softmax over the m u's of the row, sign by block
      return exp(select(u, -u, b == 1u) - shift) / aux;
    }
    default: {
      return fm_nan();
    }
  }
}

// The formulas of fm_feature that favor-features.wgsl's `features` also calls from a loop of its own
// (one function per formula, so both give the same bits).

/// Trig's two blocks of one u at once: [sin u | cos u]·ratio·exp(hn).
fn fm_trig(u: f32, hn: f32) -> vec2<f32> {
  let sc = sin_cos(u);
  let a = fm.ratio * exp(hn);
  return vec2<f32>(a * sc.x, a * sc.y);
}

fn fm_relu(u: f32) -> f32 {
  return max(fm.ratio * u, 0.0) + FM_RELU_EPS;
}

fn fm_elu1(u: f32) -> f32 {
  return select(exp(u), u + 1.0, u > 0.0);
}

/// A quiet NaN: what an unknown map code computes, so a missing case cannot pass for another map.
/// (The bits depend on the uniform so the bitcast is not a constant expression, where NaN is an error.)
fn fm_nan() -> f32 {
  return bitcast<f32>(0x7fc00000u | (fm.kind & 0u));
}

/// Hedgehog (shift, aux) of block b of a row (query or key side): written by hh_row_stats.
fn fm_hh_stats(side: u32, row: u32, b: u32) -> vec2<f32> {
  if (side == FM_QUERY) {
    return fm_qstats[2u * row + b];
  }
  return fm_kstats[2u * row + b];
}

/// (shift, aux) stabilizers for a valid (row, u column).
fn fm_stats(side: u32, row: u32, col: u32) -> vec2<f32> {
  if (!fm_has_stats()) {
    return vec2<f32>(0.0, 1.0);
  }
  if (side == FM_QUERY) {
    return fm_qstats[row];
  }
  if (fm.kind == FM_DSOFTMAX && fm.causal_keys == 0u) {
    return fm_kstats[col];
  }
  return fm_kstats[0];
}

/// φ tile: tile rows `rows` (see FmRows; fm_rows(side, row0) for R rows of one matrix), u columns
/// u0..u0+C−1, i.e. the nb·C features b·nu + u0 + cl. Writes fm_phi[dst + r·stride + b·C + cl];
/// entries outside the matrix (row ≥ n or u0 + cl ≥ nu) are written as exactly 0, so they add
/// nothing to any sum. Starts with a barrier (the caller may still have been reading fm_phi /
/// fm_a) and leaves only this invocation's own entries visible: the caller must barrier before
/// reading fm_phi.
fn fm_phi_tile2(rows: FmRows, u0: u32, R: u32, C: u32, lid: u32, dst: u32, stride: u32) {
  workgroupBarrier();
  let pu = fm_project(rows, u0, R, C, lid);
  for (var t = 0u; t < 4u; t++) {
    let sl = fm_slot(lid, t, R, C);
    if (sl.z == 1u) {
      let r = sl.x;
      let cl = sl.y;
      let sr = fm_row_of(rows, r);
      let col = u0 + cl;
      let valid = sr.y < fm.n && col < fm.nu;
      let hn = select(pu.hn.x, pu.hn.y, t >= 2u);
      for (var b = 0u; b < fm.nb; b++) {
        var v = 0.0;
        if (valid) {
          v = fm_phi_at(pu.u[t], b, hn, sr, col);
        }
        fm_phi[dst + r * stride + b * C + cl] = v;
      }
    }
  }
}

/// φ of block b at matrix row sr = (side, row < n), u column col < nu, from its u and
/// hn = ‖x‖²/2 (fm_project's bits): the stabilizers, then the formula. Every kernel forms its
/// features here, so on-the-fly and materialized features are the same bits.
fn fm_phi_at(u: f32, b: u32, hn: f32, sr: vec2<u32>, col: u32) -> f32 {
  var st = fm_stats(sr.x, sr.y, col);
  if (fm_row_softmax()) {
    st = fm_hh_stats(sr.x, sr.y, b);
  }
  var h = 0.0;
  if (fm_uses_norm()) {
    h = hn;
  }
  return fm_feature_at(u, b, h, st, sr, col);
}

/// fm_phi_tile2 for rows row0..row0+R−1 of one matrix (Q for FM_QUERY, K for FM_KEY).
fn fm_phi_tile(side: u32, row0: u32, u0: u32, R: u32, C: u32, lid: u32, dst: u32, stride: u32) {
  fm_phi_tile2(fm_rows(side, row0), u0, R, C, lid, dst, stride);
}

/// OPRF's exponent A‖ω_col‖² + √(1−4A)·u before the norm and shift terms (‖ω‖² summed in
/// coordinate order; 0 for a column past nu). row_stats takes its max; fm_feature_at its exp.
fn fm_oprf_exponent(u: f32, col: u32) -> f32 {
  if (col >= fm.nu) {
    return 0.0;
  }
  var wn = 0.0;
  let o = col * fm.d;
  for (var c = 0u; c < fm.d; c++) {
    let w = fm_w[o + c];
    wn = wn + w * w;
  }
  return fm.map_a * wn + sqrt(1.0 - 4.0 * fm.map_a) * u;
}

/// φ value of block b at feature column col of matrix row sr = (side, row): the maps that need the
/// column or the row (oprf, taylor2, cosformer) here, the others in fm_feature. u is the projection
/// (or coordinate) of fm_project.
fn fm_feature_at(u: f32, b: u32, hn: f32, st: vec2<f32>, sr: vec2<u32>, col: u32) -> f32 {
  switch (fm.kind) {
    case FM_OPRF: {
      return fm.ratio * (exp(fm_oprf_exponent(u, col) - (hn + st.x)) + fm.eps);
    }
    case FM_TAYLOR2: { // 1 | x_c | x_a x_b / √2
      let d = fm.d;
      let o = sr.y * d;
      if (col == 0u) {
        return 1.0;
      }
      if (col <= d) {
        return fm_input(sr.x, o + col - 1u);
      }
      let k = col - 1u - d;
      return fm_input(sr.x, o + k / d) * fm_input(sr.x, o + k % d) * 0.70710678118654752;
    }
    case FM_COSFORMER: {
      let sc = sin_cos(3.14159265358979323846 * f32(sr.y) / (2.0 * f32(fm.n)));
      return max(u, 0.0) * select(sc.y, sc.x, b == 1u);
    }
    default: {
      return fm_feature(u, b, hn, st.x, st.y);
    }
  }
}
