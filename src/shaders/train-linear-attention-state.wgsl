// Linear attention states of the trainer (src/gpu/train/linear-attention.ts; CPU twin
// src/core/train/linear-attention-train.ts; layouts in train-linear-attention-common.wgsl).
//
// entry `state`: per (b, h), feature f, column c ≤ dh:
//   smode 0: St[0][f, c] = Σ_t X_t[f] Y_t[c]                       (bidirectional S = Σ φk vᵀ, z)
//   smode 1: St[s][f, c] = Σ_{t < s·chunk} X_t[f] Y_t[c]           (exclusive prefix: causal forward)
//   smode 2: St[s][f, c] = Σ_{t ≥ (s+1)·chunk} X_t[f] Y_t[c]       (exclusive suffix: the causal
//            backward's reverse prefix scan R = Σ_{i ≥ …} φq_i g_iᵀ)
//   X = φk and Y = [v, 1] (y_ones = 1) in the forward; X = φq, Y = G in the backward.
// entry `gext`: G_i = [dOut_i / den_i, −(dOut_i · out_i) / den_i] per (row, h).
//
// Thread mapping: `state` one invocation per (b, h) and 8 × 8 block of (f, c) (c blocks fastest),
// scanning the L rows sequentially in order (reverse for smode 2) with the block's 64 running sums
// in registers (a Block8 summed by block8_fma, train-block8.wgsl, prepended by the dispatcher;
// 8 + 8 loads per 64 FMAs; one (f, c) per invocation paid 2 loads per FMA, and on
// SwiftShader the loads are what costs), writing them at each chunk boundary; f, c past F, dh + 1
// read the last one (clamped) and are not written. `gext` one invocation per (row, h).
// Dispatch: ⌈B·H·⌈F/8⌉·⌈(dh+1)/8⌉ / 64⌉ resp. ⌈B·L·H / 64⌉ workgroups of @workgroup_size(64),
// split over (x, y) with x = gx.

@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> Y: array<f32>;
@group(0) @binding(3) var<storage, read_write> St: array<f32>;
@group(0) @binding(4) var<storage, read> O: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read> Den: array<f32>;
@group(0) @binding(7) var<storage, read_write> G: array<f32>;

@compute @workgroup_size(64)
fn state(@builtin(global_invocation_id) gid: vec3<u32>) {
  let id = flat_id(gid);
  let nc = U.nc;
  let F = U.F;
  // an 8 × 8 block of (f, c): block columns fastest
  let ncb = (nc + 7u) / 8u;
  let nfb = (F + 7u) / 8u;
  let c0 = (id % ncb) * 8u;
  let f0 = ((id / ncb) % nfb) * 8u;
  let bh = id / (ncb * nfb);
  if (bh >= U.B * U.H) { return; }
  let b = bh / U.H;
  let h = bh % U.H;
  let L = U.L;
  let step = vec4<u32>(0u, 1u, 2u, 3u);
  let fc0 = min(vec4<u32>(f0) + step, vec4<u32>(F - 1u));
  let fc1 = min(vec4<u32>(f0 + 4u) + step, vec4<u32>(F - 1u));
  let cc0 = min(vec4<u32>(c0) + step, vec4<u32>(nc - 1u));
  let cc1 = min(vec4<u32>(c0 + 4u) + step, vec4<u32>(nc - 1u));
  let xb0 = vec4<u32>((b * L * U.H + h) * F) + fc0;
  let xb1 = vec4<u32>((b * L * U.H + h) * F) + fc1;
  let xstep = U.H * F;
  let sb = bh * U.nS;
  // the ones column c = dh of [v, 1] (forward): a factor 0 on the load, 1 added
  let one0 = (cc0 == vec4<u32>(U.dh)) & vec4<bool>(U.y_ones == 1u);
  let one1 = (cc1 == vec4<u32>(U.dh)) & vec4<bool>(U.y_ones == 1u);
  let k0 = select(vec4<f32>(1.0), vec4<f32>(0.0), one0);
  let k1 = select(vec4<f32>(1.0), vec4<f32>(0.0), one1);
  let o0 = select(vec4<f32>(0.0), vec4<f32>(1.0), one0);
  let o1 = select(vec4<f32>(0.0), vec4<f32>(1.0), one1);
  // Y columns clamped below dh when the ones column stands in (never read past the row)
  let yc0 = select(cc0, min(cc0, vec4<u32>(max(U.dh, 1u) - 1u)), vec4<bool>(U.y_ones == 1u));
  let yc1 = select(cc1, min(cc1, vec4<u32>(max(U.dh, 1u) - 1u)), vec4<bool>(U.y_ones == 1u));
  var acc = Block8();
  var t = 0u;
  let spans = select(U.nS, 1u, U.smode == 0u);
  for (var k = 0u; k < spans; k++) {
    var s = 0u;
    var tend = L;
    if (U.smode != 0u) {
      s = select(k, U.nS - 1u - k, U.smode == 2u);
      // store the exclusive prefix (suffix), then add the chunk's rows
      store_block(sb + s, f0, c0, acc);
      t = s * U.chunk;
      tend = min(L, (s + 1u) * U.chunk);
    }
    // rows t … tend − 1, in order (smode 2: in reverse)
    for (var q = 0u; q < tend - t; q++) {
      var tt = t + q;
      if (U.smode == 2u) { tt = tend - 1u - q; }
      let xo = tt * xstep;
      let x0 = vec4<f32>(X[xb0.x + xo], X[xb0.y + xo], X[xb0.z + xo], X[xb0.w + xo]);
      let x1 = vec4<f32>(X[xb1.x + xo], X[xb1.y + xo], X[xb1.z + xo], X[xb1.w + xo]);
      let yo = U.y_off + (b * L + tt) * U.y_ld + h * U.y_hs;
      let y0 = vec4<f32>(Y[yo + yc0.x], Y[yo + yc0.y], Y[yo + yc0.z], Y[yo + yc0.w]) * k0 + o0;
      let y1 = vec4<f32>(Y[yo + yc1.x], Y[yo + yc1.y], Y[yo + yc1.z], Y[yo + yc1.w]) * k1 + o1;
      acc = block8_fma(acc, x0, x1, y0, y1);
    }
    if (U.smode == 0u) {
      store_block(sb, f0, c0, acc);
    }
  }
}

/// St[s][f, c] for the valid (f, c) of the 8 × 8 block at (f0, c0) (blk.c{r}{c / 4}[c mod 4]).
fn store_block(s: u32, f0: u32, c0: u32, blk: Block8) {
  let acc = array<vec4<f32>, 16>(
    blk.c00, blk.c01, blk.c10, blk.c11, blk.c20, blk.c21, blk.c30, blk.c31,
    blk.c40, blk.c41, blk.c50, blk.c51, blk.c60, blk.c61, blk.c70, blk.c71,
  );
  for (var r = 0u; r < 8u; r++) {
    if (f0 + r >= U.F) { break; }
    for (var x = 0u; x < 8u; x++) {
      if (c0 + x >= U.nc) { break; }
      St[(s * U.F + f0 + r) * U.nc + c0 + x] = acc[2u * r + x / 4u][x % 4u];
    }
  }
}

@compute @workgroup_size(64)
fn gext(@builtin(global_invocation_id) gid: vec3<u32>) {
  let id = flat_id(gid);
  if (id >= U.B * U.L * U.H) { return; }
  let row = id / U.H;
  let h = id % U.H;
  let inv = 1.0 / Den[id];
  var e = 0.0;
  for (var c = 0u; c < U.dh; c++) {
    let d = dO[U.off_do + row * U.ld_do + h * U.dh + c];
    G[id * U.nc + c] = d * inv;
    e = fma(d, O[U.off_o + row * U.ld_o + h * U.dh + c], e);
  }
  G[id * U.nc + U.dh] = -e * inv;
}
