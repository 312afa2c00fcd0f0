// feature-map-common.wgsl — the feature maps φ of linear attention, shared by every kernel that
// needs features (favor-features.wgsl materializes them; performer-bidirectional.wgsl and
// performer-causal.wgsl compute them on the fly). The dispatcher prepends this file to each of
// those sources, so a feature computed on the fly is produced by exactly the same code (same
// projection loop, same summation order, same formula) as a materialized one: bit for bit equal.
//
// Formulas (ARCHITECTURE.md; CPU twin src/core/feature-maps.ts). Inputs are scaled in-kernel:
// x = q·d^{-1/4}, y = k·d^{-1/4}. u_r = ω_r·x (ω_r = row r of W, m×d), hn = ‖x‖²/2, ε = 1e-6:
//   0 positive       ratio·(exp(u_r − (hn + shift)) + ε)                    ratio = m^{-1/2}
//   1 hyperbolic     ratio·(exp(±u_r − (hn + shift)) + ε), [+u | −u] blocks ratio = (2m)^{-1/2}
//   2 trig           ratio·exp(hn)·[sin u_r | cos u_r]                        ratio = m^{-1/2}
//   3 relu           max(ratio·u_r, 0) + 0.001                                ratio = m^{-1/2}
//   4 elu1           elu(x_c) + 1                     (no projection: "u_c" = x_c, d features)
//   5 exp            exp(u_r − shift) + ε
//   6 double-softmax exp(x_c − shift)/aux             (no projection, d features)
// (shift, aux) — the stabilizers — come from stats buffers written by favor-features.wgsl:
//   query side: fm_qstats[row]  = (max_r u_r | max_r |u_r| (hyperbolic) | max_c x_c, Σ_c exp(x_c − max))
//   key side:   fm_kstats[0]    = (max over all keys and r of u (or |u|), 0)
//               fm_kstats[c]    = (max_j y_jc, Σ_j exp(y_jc − max))  for double-softmax (per column)
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

const FM_WG: u32 = 256u;
const FM_TC: u32 = 16u;          // coordinates per projection slab
const FM_XS: u32 = 17u;          // padded row stride of the slabs in fm_a
const FM_W_OFF: u32 = 1088u;     // W slab offset in fm_a (64 rows × FM_XS)
const FM_A_SIZE: u32 = 2304u;
const FM_PHI_SIZE: u32 = 1152u;
const FM_MAX_ROWS: u32 = 64u;    // rows per φ tile
const FM_MAX_COLS: u32 = 64u;    // u columns per φ tile; rows·cols ≤ 1024

const FM_POSITIVE: u32 = 0u;
const FM_HYPERBOLIC: u32 = 1u;
const FM_TRIG: u32 = 2u;
const FM_RELU: u32 = 3u;
const FM_ELU1: u32 = 4u;
const FM_EXP: u32 = 5u;
const FM_DSOFTMAX: u32 = 6u;

const FM_EPS: f32 = 1e-6;
const FM_RELU_EPS: f32 = 0.001;
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
  kind: u32,     // feature map code 0–6 (uniform, so one pipeline serves every map)
  nb: u32,       // blocks per u column: 2 (hyperbolic, trig) or 1
  chunk: u32,    // kernel-specific: rows per chunk
  nchunks: u32,  // kernel-specific: number of chunks
  a0: u32,       // kernel-specific
  a1: u32,
}

fn fm_uses_w() -> bool {
  return fm.kind != FM_ELU1 && fm.kind != FM_DSOFTMAX;
}
fn fm_has_stats() -> bool {
  return fm.kind == FM_POSITIVE || fm.kind == FM_HYPERBOLIC || fm.kind == FM_EXP || fm.kind == FM_DSOFTMAX;
}
fn fm_uses_norm() -> bool {
  return fm.kind == FM_POSITIVE || fm.kind == FM_HYPERBOLIC || fm.kind == FM_TRIG;
}

@group(0) @binding(0) var<uniform> fm: FmParams;
@group(0) @binding(1) var<storage, read> fm_q: array<f32>;
@group(0) @binding(2) var<storage, read> fm_k: array<f32>;
@group(0) @binding(3) var<storage, read> fm_w: array<f32>;
@group(0) @binding(4) var<storage, read> fm_qstats: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read> fm_kstats: array<vec2<f32>>;

var<workgroup> fm_a: array<f32, FM_A_SIZE>;
var<workgroup> fm_phi: array<f32, FM_PHI_SIZE>;
var<workgroup> fm_hn: array<f32, FM_MAX_ROWS>;

/// Scaled input coordinate x = q·d^{-1/4} (side FM_QUERY) or y = k·d^{-1/4} (FM_KEY).
fn fm_input(side: u32, idx: u32) -> f32 {
  if (side == FM_QUERY) {
    return fm_q[idx] * fm.scale;
  }
  return fm_k[idx] * fm.scale;
}

/// u values of the R×C tile (rows row0.., u columns u0..) for this invocation's entries
/// e = lid + t·FM_WG (t = 0..3; entry e is row e / C, column e % C); R ≤ 64, C ≤ 64, R·C ≤ 1024.
/// u = Σ_c x_c·w_c accumulated over c = 0, 1, …, d−1 in order (slabs of FM_TC coordinates; the
/// zero padding past d adds exact zeros). Also leaves hn = ‖x‖²/2 of the tile rows in fm_hn.
/// Must be called in uniform control flow; ends with a barrier (fm_a is then free).
fn fm_project(side: u32, row0: u32, u0: u32, R: u32, C: u32, lid: u32) -> array<f32, 4> {
  var acc = array<f32, 4>(0.0, 0.0, 0.0, 0.0);
  let n = fm.n;
  let d = fm.d;
  if (fm_uses_w()) {
    var nrm = 0.0;
    let nslab = (d + FM_TC - 1u) / FM_TC;
    for (var s = 0u; s < nslab; s++) {
      let c0 = s * FM_TC;
      workgroupBarrier();
      for (var e = lid; e < R * FM_TC; e += FM_WG) {
        let r = e / FM_TC;
        let c = c0 + e % FM_TC;
        let row = row0 + r;
        var v = 0.0;
        if (row < n && c < d) {
          v = fm_input(side, row * d + c);
        }
        fm_a[r * FM_XS + e % FM_TC] = v;
      }
      for (var e = lid; e < C * FM_TC; e += FM_WG) {
        let r = e / FM_TC;
        let c = c0 + e % FM_TC;
        let ur = u0 + r;
        var v = 0.0;
        if (ur < fm.nu && c < d) {
          v = fm_w[ur * d + c];
        }
        fm_a[FM_W_OFF + r * FM_XS + e % FM_TC] = v;
      }
      workgroupBarrier();
      for (var t = 0u; t < 4u; t++) {
        let e = lid + t * FM_WG;
        if (e < R * C) {
          let xo = (e / C) * FM_XS;
          let wo = FM_W_OFF + (e % C) * FM_XS;
          var a = acc[t];
          for (var cc = 0u; cc < FM_TC; cc++) {
            a = a + fm_a[xo + cc] * fm_a[wo + cc];
          }
          acc[t] = a;
        }
      }
      if (lid < R) {
        for (var cc = 0u; cc < FM_TC; cc++) {
          let x = fm_a[lid * FM_XS + cc];
          nrm = nrm + x * x;
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
    for (var t = 0u; t < 4u; t++) {
      let e = lid + t * FM_WG;
      if (e < R * C) {
        let row = row0 + e / C;
        let col = u0 + e % C;
        if (row < n && col < d) {
          acc[t] = fm_input(side, row * d + col);
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

/// φ value of block b for projection u (or coordinate x_c), half squared norm hn, stabilizers.
fn fm_feature(u: f32, b: u32, hn: f32, shift: f32, aux: f32) -> f32 {
  switch (fm.kind) {
    case 0u: { // positive
      return fm.ratio * (exp(u - (hn + shift)) + FM_EPS);
    }
    case 1u: { // hyperbolic
      let s = select(u, -u, b == 1u);
      return fm.ratio * (exp(s - (hn + shift)) + FM_EPS);
    }
    case 2u: { // trig
      let sc = fm_sincos(u);
      return fm.ratio * exp(hn) * select(sc.x, sc.y, b == 1u);
    }
    case 3u: { // relu
      return max(fm.ratio * u, 0.0) + FM_RELU_EPS;
    }
    case 4u: { // elu1
      return select(exp(u), u + 1.0, u > 0.0);
    }
    case 5u: { // exp
      return exp(u - shift) + FM_EPS;
    }
    default: { // double-softmax
      return exp(u - shift) / aux;
    }
  }
}

/// (shift, aux) stabilizers for a valid (row, u column).
fn fm_stats(side: u32, row: u32, col: u32) -> vec2<f32> {
  if (!fm_has_stats()) {
    return vec2<f32>(0.0, 1.0);
  }
  if (side == FM_QUERY) {
    return fm_qstats[row];
  }
  if (fm.kind == FM_DSOFTMAX) {
    return fm_kstats[col];
  }
  return fm_kstats[0];
}

/// φ tile: rows row0..row0+R−1 (of Q or K by `side`), u columns u0..u0+C−1, i.e. the nb·C
/// features b·nu + u0 + cl. Writes fm_phi[dst + r·stride + b·C + cl]; entries outside the matrix
/// (row ≥ n or u0 + cl ≥ nu) are written as exactly 0, so they add nothing to any sum.
/// Starts with a barrier (the caller may still have been reading fm_phi / fm_a) and leaves only
/// this invocation's own entries visible: the caller must barrier before reading fm_phi.
fn fm_phi_tile(side: u32, row0: u32, u0: u32, R: u32, C: u32, lid: u32, dst: u32, stride: u32) {
  workgroupBarrier();
  let u = fm_project(side, row0, u0, R, C, lid);
  for (var t = 0u; t < 4u; t++) {
    let e = lid + t * FM_WG;
    if (e < R * C) {
      let r = e / C;
      let cl = e % C;
      let row = row0 + r;
      let col = u0 + cl;
      let valid = row < fm.n && col < fm.nu;
      var hn = 0.0;
      var st = vec2<f32>(0.0, 1.0);
      if (valid) {
        if (fm_uses_norm()) {
          hn = fm_hn[r];
        }
        st = fm_stats(side, row, col);
      }
      for (var b = 0u; b < fm.nb; b++) {
        var v = 0.0;
        if (valid) {
          v = fm_feature(u[t], b, hn, st.x, st.y);
        }
        fm_phi[dst + r * stride + b * C + cl] = v;
      }
    }
  }
}
