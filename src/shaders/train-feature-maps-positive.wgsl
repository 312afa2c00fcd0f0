// The positive (FAVOR+) map's blocked entries of the trainer's feature maps, appended to
// train-feature-maps.wgsl (its header: formulas, uniform, bindings, `item`, `scale_s`) by
// src/gpu/train/feature-maps.ts; CPU twin src/core/train/feature-map-grad.ts (map 'positive').
//
// Entries `forward_pos` / `backward_pos`: the positive map (map 0 there, same formulas and sum
// orders) blocked for SwiftShader, where the storage loads are what costs: one invocation per
// head h and 4 consecutive rows 4·rb … (block e = rb·H + h; rows past the end read the last row,
// clamped, and write nothing). forward: u = W x̃ as 4 rows × 8 features over a (12 loads per 32
// FMAs; one row per invocation paid 2 per FMA); backward: Wᵀg as 4 rows × 8 input columns over f
// (g_f = dφ_f φ_f recomputed per block of columns: 16 loads per 32 FMAs, against 3 per FMA).
// The tiles' epilogues run straight-line (pos_row, dx_row). 4 × 4 tiles with per-output loops
// took ~1.4× (forward) and ~1.5× (backward) as long on SwiftShader.
// Dispatch: ⌈⌈rows / 4⌉·H / 64⌉ workgroups of 64, split over (x, y) with x = gx.

struct PosBlock {
  h: u32,
  rv: vec4<u32>,
  live: vec4<bool>,
  xb: vec4<u32>,
  ob: vec4<u32>,
  /// items (row·H + h) of the 4 rows (clamped)
  it: vec4<u32>,
}

fn pos_block(gid: vec3<u32>) -> PosBlock {
  let e = item(gid);
  let h = e % U.H;
  let rv = vec4<u32>((e / U.H) * 4u) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(U.rows - 1u));
  let it = rc * U.H + vec4<u32>(h);
  return PosBlock(h, rv, rv < vec4<u32>(U.rows), vec4<u32>(U.off_x + h * U.dh) + rc * U.ld_x, it * U.F, it);
}

fn pos_blocks_out(gid: vec3<u32>) -> bool { return item(gid) >= ((U.rows + 3u) / 4u) * U.H; }

fn xq(xb: vec4<u32>, a: u32) -> vec4<f32> { return vec4<f32>(X[xb.x + a], X[xb.y + a], X[xb.z + a], X[xb.w + a]); }

@compute @workgroup_size(64)
fn forward_pos(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (pos_blocks_out(gid)) { return; }
  let p = pos_block(gid);
  let dh = U.dh;
  let m = U.m;
  let sc = scale_s();
  var n2 = vec4<f32>(0.0);
  for (var a = 0u; a < dh; a++) {
    let x = xq(p.xb, a);
    n2 = fma(x, x, n2);
  }
  let hn = 0.5 * sc * sc * n2;
  let wb = U.off_w + p.h * m * dh;
  var mx = vec4<f32>(-3.0e38);
  let f1 = vec4<u32>(4u, 5u, 6u, 7u);
  let ml = vec4<u32>(m - 1u);
  for (var f0 = 0u; f0 < m; f0 += 8u) {
    let fw = vec4<u32>(wb) + min(vec4<u32>(f0) + vec4<u32>(0u, 1u, 2u, 3u), ml) * dh;
    let fw1 = vec4<u32>(wb) + min(vec4<u32>(f0) + f1, ml) * dh;
    var u0 = vec4<f32>(0.0); // row 0 of the block over features f0 … f0+3
    var u1 = vec4<f32>(0.0);
    var u2 = vec4<f32>(0.0);
    var u3 = vec4<f32>(0.0);
    var v0 = vec4<f32>(0.0); // row 0 over features f0+4 … f0+7
    var v1 = vec4<f32>(0.0);
    var v2 = vec4<f32>(0.0);
    var v3 = vec4<f32>(0.0);
    for (var a = 0u; a < dh; a++) {
      let wv = vec4<f32>(W[fw.x + a], W[fw.y + a], W[fw.z + a], W[fw.w + a]);
      let wv1 = vec4<f32>(W[fw1.x + a], W[fw1.y + a], W[fw1.z + a], W[fw1.w + a]);
      let x = xq(p.xb, a);
      u0 = fma(wv, vec4<f32>(x.x), u0);
      u1 = fma(wv, vec4<f32>(x.y), u1);
      u2 = fma(wv, vec4<f32>(x.z), u2);
      u3 = fma(wv, vec4<f32>(x.w), u3);
      v0 = fma(wv1, vec4<f32>(x.x), v0);
      v1 = fma(wv1, vec4<f32>(x.y), v1);
      v2 = fma(wv1, vec4<f32>(x.z), v2);
      v3 = fma(wv1, vec4<f32>(x.w), v3);
    }
    let n = min(8u, m - f0);
    mx.x = pos_row(p.live.x, p.ob.x + f0, n, u0 * sc - vec4<f32>(hn.x), v0 * sc - vec4<f32>(hn.x), mx.x);
    mx.y = pos_row(p.live.y, p.ob.y + f0, n, u1 * sc - vec4<f32>(hn.y), v1 * sc - vec4<f32>(hn.y), mx.y);
    mx.z = pos_row(p.live.z, p.ob.z + f0, n, u2 * sc - vec4<f32>(hn.z), v2 * sc - vec4<f32>(hn.z), mx.z);
    mx.w = pos_row(p.live.w, p.ob.w + f0, n, u3 * sc - vec4<f32>(hn.w), v3 * sc - vec4<f32>(hn.w), mx.w);
  }
  let inv = 1.0 / sqrt(f32(m));
  for (var r = 0u; r < 4u; r++) {
    if (!p.live[r]) { continue; }
    if (U.side == 1u) {
      RowMax[p.it[r]] = mx[r];
    } else {
      for (var f = 0u; f < m; f++) { Phi[p.ob[r] + f] = exp(Phi[p.ob[r] + f] - mx[r]) * inv; }
    }
  }
}

@compute @workgroup_size(64)
fn backward_pos(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (pos_blocks_out(gid)) { return; }
  let p = pos_block(gid);
  let dh = U.dh;
  let m = U.m;
  let sc = scale_s();
  let ob = p.ob;
  var G = vec4<f32>(0.0);
  for (var f = 0u; f < m; f++) {
    let d = vec4<f32>(dPhi[ob.x + f], dPhi[ob.y + f], dPhi[ob.z + f], dPhi[ob.w + f]);
    G = fma(d, vec4<f32>(PhiIn[ob.x + f], PhiIn[ob.y + f], PhiIn[ob.z + f], PhiIn[ob.w + f]), G);
  }
  let wb = U.off_w + p.h * m * dh;
  let dl = vec4<u32>(dh - 1u);
  for (var a0 = 0u; a0 < dh; a0 += 8u) {
    let ac = min(vec4<u32>(a0) + vec4<u32>(0u, 1u, 2u, 3u), dl);
    let ac1 = min(vec4<u32>(a0) + vec4<u32>(4u, 5u, 6u, 7u), dl);
    var c0 = vec4<f32>(0.0); // row 0 of the block over columns a0 … a0+3
    var c1 = vec4<f32>(0.0);
    var c2 = vec4<f32>(0.0);
    var c3 = vec4<f32>(0.0);
    var e0 = vec4<f32>(0.0); // row 0 over columns a0+4 … a0+7
    var e1 = vec4<f32>(0.0);
    var e2 = vec4<f32>(0.0);
    var e3 = vec4<f32>(0.0);
    for (var f = 0u; f < m; f++) {
      let wo = wb + f * dh;
      let wv = vec4<f32>(W[wo + ac.x], W[wo + ac.y], W[wo + ac.z], W[wo + ac.w]);
      let wv1 = vec4<f32>(W[wo + ac1.x], W[wo + ac1.y], W[wo + ac1.z], W[wo + ac1.w]);
      let g = vec4<f32>(dPhi[ob.x + f], dPhi[ob.y + f], dPhi[ob.z + f], dPhi[ob.w + f]) *
        vec4<f32>(PhiIn[ob.x + f], PhiIn[ob.y + f], PhiIn[ob.z + f], PhiIn[ob.w + f]);
      c0 = fma(vec4<f32>(g.x), wv, c0);
      c1 = fma(vec4<f32>(g.y), wv, c1);
      c2 = fma(vec4<f32>(g.z), wv, c2);
      c3 = fma(vec4<f32>(g.w), wv, c3);
      e0 = fma(vec4<f32>(g.x), wv1, e0);
      e1 = fma(vec4<f32>(g.y), wv1, e1);
      e2 = fma(vec4<f32>(g.z), wv1, e2);
      e3 = fma(vec4<f32>(g.w), wv1, e3);
    }
    let n = min(8u, dh - a0);
    dx_row(p.live.x, p.xb.x + a0, U.off_dx + min(p.rv.x, U.rows - 1u) * U.ld_dx + p.h * dh + a0, n, c0, e0, G.x, sc);
    dx_row(p.live.y, p.xb.y + a0, U.off_dx + min(p.rv.y, U.rows - 1u) * U.ld_dx + p.h * dh + a0, n, c1, e1, G.y, sc);
    dx_row(p.live.z, p.xb.z + a0, U.off_dx + min(p.rv.z, U.rows - 1u) * U.ld_dx + p.h * dh + a0, n, c2, e2, G.z, sc);
    dx_row(p.live.w, p.xb.w + a0, U.off_dx + min(p.rv.w, U.rows - 1u) * U.ld_dx + p.h * dh + a0, n, c3, e3, G.w, sc);
  }
}

// The 4 × 8 tiles' epilogues, straight-line with constant lanes (a loop indexing the register
// tile dynamically is spilled and read back lane by lane on SwiftShader):

/// One row's exponents e of features f0 … (lo, hi) into Phi from element o, the first n;
/// returns the row's running max over them.
fn pos_row(live: bool, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>, m: f32) -> f32 {
  if (!live) { return m; }
  var x = m;
  if (n > 0u) { Phi[o] = lo.x; x = max(x, lo.x); }
  if (n > 1u) { Phi[o + 1u] = lo.y; x = max(x, lo.y); }
  if (n > 2u) { Phi[o + 2u] = lo.z; x = max(x, lo.z); }
  if (n > 3u) { Phi[o + 3u] = lo.w; x = max(x, lo.w); }
  if (n > 4u) { Phi[o + 4u] = hi.x; x = max(x, hi.x); }
  if (n > 5u) { Phi[o + 5u] = hi.y; x = max(x, hi.y); }
  if (n > 6u) { Phi[o + 6u] = hi.z; x = max(x, hi.z); }
  if (n > 7u) { Phi[o + 7u] = hi.w; x = max(x, hi.w); }
  return x;
}

/// One row's dx = s·(Wᵀg − s·x·Σg) of columns a0 … (lo, hi = Wᵀg) from element o of dX, x from
/// element xo of X, the first n.
fn dx_row(live: bool, xo: u32, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>, g: f32, sc: f32) {
  if (!live) { return; }
  if (n == 8u) {
    let a = sc * (lo - sc * vec4<f32>(X[xo], X[xo + 1u], X[xo + 2u], X[xo + 3u]) * g);
    let b = sc * (hi - sc * vec4<f32>(X[xo + 4u], X[xo + 5u], X[xo + 6u], X[xo + 7u]) * g);
    dX[o] = a.x;
    dX[o + 1u] = a.y;
    dX[o + 2u] = a.z;
    dX[o + 3u] = a.w;
    dX[o + 4u] = b.x;
    dX[o + 5u] = b.y;
    dX[o + 6u] = b.z;
    dX[o + 7u] = b.w;
    return;
  }
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var q = 0u; q < n; q++) { dX[o + q] = sc * (vs[q / 4u][q % 4u] - sc * X[xo + q] * g); }
}
