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
// Workgroup memory owned by this snippet: fm_a (scratch for the projection slabs; free for the
// caller between calls), fm_phi (the φ tile), fm_hn (half squared norms of the tile's rows).
// Every kernel using it runs FM_WG = 256 invocations per workgroup.
//
// Projection tiling (fm_project): a tile of R rows × C u columns; d is walked in slabs of 16
// coordinates, X and W slabs staged in fm_a as vec4 rows (two barriers per slab); each invocation
// owns a 2×2 block of u (4 vec4 loads per 16 FMAs) and adds one coordinate at a time in increasing
// order. Tile rows may come from Q and K at once (FmRows), which causal_gram uses to build φ(Q)
// and φ(K) of a chunk in one pass.

const FM_WG: u32 = 256u;
const FM_TC: u32 = 16u;          // coordinates per projection slab (4 vec4)
const FM_W_OFF: u32 = 4u;        // W slab offset in fm_a: FM_W_OFF·R (vec4 units; X slab R × 4 vec4)
const FM_WS: u32 = 5u;           // padded W slab row stride (vec4 units)
const FM_A_VEC4: u32 = 576u;     // fm_a size: 2304 floats
const FM_PHI_SIZE: u32 = 1152u;
const FM_MAX_ROWS: u32 = 128u;   // rows per φ tile: R ≤ 128, even; C ≤ 64 u columns, even;
                                 // (R/2)·(C/2) ≤ 256; R·4 + C·5 ≤ 576 (slabs in fm_a)

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
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> fm: FmParams;
@group(0) @binding(1) var<storage, read> fm_q: array<f32>;
@group(0) @binding(2) var<storage, read> fm_k: array<f32>;
@group(0) @binding(3) var<storage, read> fm_w: array<f32>;
@group(0) @binding(4) var<storage, read> fm_qstats: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read> fm_kstats: array<vec2<f32>>;

var<workgroup> fm_a: array<vec4<f32>, FM_A_VEC4>;
var<workgroup> fm_phi: array<f32, FM_PHI_SIZE>;
var<workgroup> fm_hn: array<f32, FM_MAX_ROWS>;

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
/// fm_slot). u = Σ_c x_c·w_c accumulated one coordinate at a time over c = 0, 1, …, d−1 (slabs of
/// FM_TC coordinates held as vec4 in fm_a; the zero padding past d adds exact zeros), so every
/// kernel computes the same bits for the same entry. Also leaves hn = ‖x‖²/2 of the tile rows in
/// fm_hn. Must be called in uniform control flow; ends with a barrier (fm_a is then free).
fn fm_project(rows: FmRows, u0: u32, R: u32, C: u32, lid: u32) -> vec4<f32> {
  var acc = vec4<f32>(0.0);
  let n = fm.n;
  let d = fm.d;
  let c2 = C / 2u;
  let r2 = R / 2u;
  let owns_block = lid < r2 * c2;
  let ra = lid / c2;
  let rb = ra + r2;
  let ca = lid % c2;
  let cb = ca + c2;
  let woff = FM_W_OFF * R;
  if (fm_uses_w()) {
    var nrm = 0.0;
    let nslab = (d + FM_TC - 1u) / FM_TC;
    for (var s = 0u; s < nslab; s++) {
      let c0 = s * FM_TC;
      workgroupBarrier();
      for (var e = lid; e < R * 4u; e += FM_WG) {  // X slab: tile row e / 4, coordinates c0 + 4·(e % 4) ..
        let sr = fm_row_of(rows, e / 4u);
        let c = c0 + 4u * (e % 4u);
        var v = vec4<f32>(0.0);
        if (sr.y < n) {
          let o = sr.y * d;
          if (c < d) { v.x = fm_input(sr.x, o + c); }
          if (c + 1u < d) { v.y = fm_input(sr.x, o + c + 1u); }
          if (c + 2u < d) { v.z = fm_input(sr.x, o + c + 2u); }
          if (c + 3u < d) { v.w = fm_input(sr.x, o + c + 3u); }
        }
        fm_a[e] = v;
      }
      if (lid < C * 4u) {                        // W slab: u column lid / 4
        let ur = u0 + lid / 4u;
        let c = c0 + 4u * (lid % 4u);
        var v = vec4<f32>(0.0);
        if (ur < fm.nu) {
          let o = ur * d;
          if (c < d) { v.x = fm_w[o + c]; }
          if (c + 1u < d) { v.y = fm_w[o + c + 1u]; }
          if (c + 2u < d) { v.z = fm_w[o + c + 2u]; }
          if (c + 3u < d) { v.w = fm_w[o + c + 3u]; }
        }
        fm_a[woff + (lid / 4u) * FM_WS + lid % 4u] = v;
      }
      workgroupBarrier();
      if (owns_block) {
        var u00 = acc.x;
        var u01 = acc.y;
        var u10 = acc.z;
        var u11 = acc.w;
        for (var q = 0u; q < 4u; q++) {
          let xa = fm_a[ra * 4u + q];
          let xb = fm_a[rb * 4u + q];
          let wa = fm_a[woff + ca * FM_WS + q];
          let wb = fm_a[woff + cb * FM_WS + q];
          u00 = u00 + xa.x * wa.x; u00 = u00 + xa.y * wa.y; u00 = u00 + xa.z * wa.z; u00 = u00 + xa.w * wa.w;
          u01 = u01 + xa.x * wb.x; u01 = u01 + xa.y * wb.y; u01 = u01 + xa.z * wb.z; u01 = u01 + xa.w * wb.w;
          u10 = u10 + xb.x * wa.x; u10 = u10 + xb.y * wa.y; u10 = u10 + xb.z * wa.z; u10 = u10 + xb.w * wa.w;
          u11 = u11 + xb.x * wb.x; u11 = u11 + xb.y * wb.y; u11 = u11 + xb.z * wb.z; u11 = u11 + xb.w * wb.w;
        }
        acc = vec4<f32>(u00, u01, u10, u11);
      }
      if (lid < R) {
        for (var q = 0u; q < 4u; q++) {
          let x = fm_a[lid * 4u + q];
          nrm = nrm + x.x * x.x; nrm = nrm + x.y * x.y; nrm = nrm + x.z * x.z; nrm = nrm + x.w * x.w;
        }
      }
    }
    workgroupBarrier();
    if (lid < R) {
      fm_hn[lid] = 0.5 * nrm;
    }
    workgroupBarrier();
  } else {
    // No projection: u_c = x_c.
    if (owns_block) {
      for (var t = 0u; t < 4u; t++) {
        let sr = fm_row_of(rows, select(ra, rb, t >= 2u));
        let col = u0 + select(ca, cb, (t & 1u) == 1u);
        if (sr.y < n && col < d) {
          acc[t] = fm_input(sr.x, sr.y * d + col);
        }
      }
    }
    workgroupBarrier();
  }
  return acc;
}

/// (sin u, cos u) to ~1 ulp on any GPU: the builtins' accuracy is only specified on [−π, π] and
/// is coarse on some implementations (≈ 1e-4 on SwiftShader), which the trig map would amplify.
/// Cody–Waite reduction u = j·π/2 + s (π/2 split in three parts; exact products for |j| < 2^12),
/// |s| ≤ π/4, then the Cephes single-precision minimax polynomials and the quadrant of j.
fn fm_sincos(u: f32) -> vec2<f32> {
  let j = round(u * 0.63661977236758134);
  let s = ((u - j * 1.5703125) - j * 4.837512969970703125e-4) - j * 7.54978995489188216e-8;
  let z = s * s;
  let sn = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * s + s;
  let cs = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
  let q = i32(j) & 3;
  switch (q) {
    case 0: { return vec2<f32>(sn, cs); }
    case 1: { return vec2<f32>(cs, -sn); }
    case 2: { return vec2<f32>(-sn, -cs); }
    default: { return vec2<f32>(-cs, sn); }
  }
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
      let sc = fm_sincos(u);
      return fm.ratio * exp(hn) * select(sc.x, sc.y, b == 1u);
    }
    case FM_RELU: {
      return max(fm.ratio * u, 0.0) + FM_RELU_EPS;
    }
    case FM_ELU1: {
      return select(exp(u), u + 1.0, u > 0.0);
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
  let u = fm_project(rows, u0, R, C, lid);
  for (var t = 0u; t < 4u; t++) {
    let sl = fm_slot(lid, t, R, C);
    if (sl.z == 1u) {
      let r = sl.x;
      let cl = sl.y;
      let sr = fm_row_of(rows, r);
      let col = u0 + cl;
      let valid = sr.y < fm.n && col < fm.nu;
      var hn = 0.0;
      var st = vec2<f32>(0.0, 1.0);
      if (valid) {
        if (fm_uses_norm()) {
          hn = fm_hn[r];
        }
        st = fm_stats(sr.x, sr.y, col);
      }
      for (var b = 0u; b < fm.nb; b++) {
        var v = 0.0;
        if (valid && fm_row_softmax()) {
          st = fm_hh_stats(sr.x, sr.y, b);
        }
        if (valid) {
          v = fm_feature_at(u[t], b, hn, st, sr, col);
        }
        fm_phi[dst + r * stride + b * C + cl] = v;
      }
    }
  }
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
      let sc = fm_sincos(3.14159265358979323846 * f32(sr.y) / (2.0 * f32(fm.n)));
      return max(u, 0.0) * select(sc.y, sc.x, b == 1u);
    }
    default: {
      return fm_feature(u, b, hn, st.x, st.y);
    }
  }
}
