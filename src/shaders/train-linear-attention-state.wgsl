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
// Thread mapping: `state` one invocation per (b, h) and 4 × 4 block of (f, c) (c blocks fastest),
// scanning the L rows sequentially in order (reverse for smode 2) with the block's 16 running sums
// in registers (4 + 4 loads per 16 FMAs; one (f, c) per invocation paid 2 loads per FMA, and on
// SwiftShader the loads are what costs), writing them at each chunk boundary; f, c past F, dh + 1
// read the last one (clamped) and are not written. `gext` one invocation per (row, h).
// Dispatch: ⌈B·H·⌈F/4⌉·⌈(dh+1)/4⌉ / 64⌉ resp. ⌈B·L·H / 64⌉ workgroups of @workgroup_size(64),
// split over (x, y) with x = gx.

@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> Y: array<f32>;
@group(0) @binding(3) var<storage, read_write> St: array<f32>;
@group(0) @binding(4) var<storage, read> O: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read> Den: array<f32>;
@group(0) @binding(7) var<storage, read_write> G: array<f32>;

fn yv(row: u32, h: u32, c: u32) -> f32 {
  if (U.y_ones == 1u && c == U.dh) { return 1.0; }
  return Y[U.y_off + row * U.y_ld + h * U.y_hs + c];
}

@compute @workgroup_size(64)
fn state(@builtin(global_invocation_id) gid: vec3<u32>) {
  let id = flat_id(gid);
  let nc = U.nc;
  let F = U.F;
  // a 4 × 4 block of (f, c): block columns fastest
  let ncb = (nc + 3u) / 4u;
  let nfb = (F + 3u) / 4u;
  let c0 = (id % ncb) * 4u;
  let f0 = ((id / ncb) % nfb) * 4u;
  let bh = id / (ncb * nfb);
  if (bh >= U.B * U.H) { return; }
  let b = bh / U.H;
  let h = bh % U.H;
  let L = U.L;
  let fv = vec4<u32>(f0) + vec4<u32>(0u, 1u, 2u, 3u);
  let cv = vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u);
  let fc = min(fv, vec4<u32>(F - 1u));
  let cc = min(cv, vec4<u32>(nc - 1u));
  let xb = vec4<u32>((b * L * U.H + h) * F) + fc;
  let xstep = U.H * F;
  let sb = bh * U.nS;
  // acc[r] = row f0 + r of the block over its 4 columns
  var acc = array<vec4<f32>, 4>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  var t = 0u;
  let spans = select(U.nS, 1u, U.smode == 0u);
  for (var k = 0u; k < spans; k++) {
    var s = 0u;
    var tend = L;
    if (U.smode == 1u) {
      s = k;
      // store the exclusive prefix, then add the chunk's rows
      store_block(sb + s, fv, cv, acc);
      t = s * U.chunk;
      tend = min(L, (s + 1u) * U.chunk);
    } else if (U.smode == 2u) {
      s = U.nS - 1u - k;
      store_block(sb + s, fv, cv, acc);
      t = s * U.chunk;
      tend = min(L, (s + 1u) * U.chunk);
    }
    // rows t … tend − 1, in order (smode 2: in reverse)
    for (var q = 0u; q < tend - t; q++) {
      var tt = t + q;
      if (U.smode == 2u) { tt = tend - 1u - q; }
      let xo = tt * xstep;
      let xv = vec4<f32>(X[xb.x + xo], X[xb.y + xo], X[xb.z + xo], X[xb.w + xo]);
      let row = b * L + tt;
      let yy = vec4<f32>(yv(row, h, cc.x), yv(row, h, cc.y), yv(row, h, cc.z), yv(row, h, cc.w));
      acc[0] = fma(vec4<f32>(xv.x), yy, acc[0]);
      acc[1] = fma(vec4<f32>(xv.y), yy, acc[1]);
      acc[2] = fma(vec4<f32>(xv.z), yy, acc[2]);
      acc[3] = fma(vec4<f32>(xv.w), yy, acc[3]);
    }
    if (U.smode == 0u) { store_block(sb, fv, cv, acc); }
  }
}

/// St[s][f, c] for the valid (f, c) of a block.
fn store_block(s: u32, fv: vec4<u32>, cv: vec4<u32>, acc: array<vec4<f32>, 4>) {
  for (var r = 0u; r < 4u; r++) {
    if (fv[r] >= U.F) { break; }
    for (var x = 0u; x < 4u; x++) {
      if (cv[x] >= U.nc) { break; }
      St[(s * U.F + fv[r]) * U.nc + cv[x]] = acc[r][x];
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
