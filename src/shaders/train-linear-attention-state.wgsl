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
// Thread mapping: `state` one invocation per (b, h, f, c) scanning the L rows sequentially in
// order (reverse for smode 2), writing the running sum at each chunk boundary; `gext` one
// invocation per (row, h).
// Dispatch: ⌈B·H·F·(dh+1) / 64⌉ resp. ⌈B·L·H / 64⌉ workgroups of @workgroup_size(64), split over
// (x, y) with x = gx.

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
  let c = id % nc;
  let f = (id / nc) % F;
  let bh = id / (nc * F);
  if (bh >= U.B * U.H) { return; }
  let b = bh / U.H;
  let h = bh % U.H;
  let L = U.L;
  let xb = (b * L * U.H + h) * F + f;
  let xstep = U.H * F;
  let sb = bh * U.nS;
  var acc = 0.0;
  if (U.smode == 0u) {
    for (var t = 0u; t < L; t++) { acc = fma(X[xb + t * xstep], yv(b * L + t, h, c), acc); }
    St[(sb * F + f) * nc + c] = acc;
  } else if (U.smode == 1u) {
    for (var s = 0u; s < U.nS; s++) {
      St[((sb + s) * F + f) * nc + c] = acc;
      for (var t = s * U.chunk; t < min(L, (s + 1u) * U.chunk); t++) {
        acc = fma(X[xb + t * xstep], yv(b * L + t, h, c), acc);
      }
    }
  } else {
    for (var k = 0u; k < U.nS; k++) {
      let s = U.nS - 1u - k;
      St[((sb + s) * F + f) * nc + c] = acc;
      for (var t = min(L, (s + 1u) * U.chunk); t > s * U.chunk; t--) {
        acc = fma(X[xb + (t - 1u) * xstep], yv(b * L + t - 1u, h, c), acc);
      }
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
