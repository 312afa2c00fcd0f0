// Linear attention backward of the trainer (CPU twin: src/core/train/linear-attention-train.ts
// `linearAttentionBackward`; dispatcher src/gpu/train/linear-attention.ts; layouts and modes in
// train-linear-attention-common.wgsl).
//
// With g_i = [dOut_i / den_i, −dOut_i·out_i / den_i] (entry `gext` of the state shader) and
// v̄_j = [v_j, 1], the gradient of a_ij = φq_i·φk_j is da_ij = g_i·v̄_j, so
//   dφq_i = Σ_j da_ij φk_j = S_iᵀ-part [S | z] g_i + dense part       (entry `rows`)
//   dφk_j = Σ_i da_ij φq_i = R_j v̄_j + dense part,                    (entry `cols`)
//   dv_j  = Σ_i a_ij g_i[:dh] = (φk_jᵀ R_j)[:dh] + dense part
// where S is the forward state (mode 0: whole sequence; mode 1: exclusive prefix of j's chunk) and
// R = Σ_i φq_i g_iᵀ over i ≥ the end of j's chunk (mode 1: the exclusive suffix — the reverse
// prefix scan) or all i (mode 0); the dense parts cover the rest of the chunk (mode 1) or the
// window (mode 2, no state). No L×L matrix.
//
// Thread mapping: one invocation per (b, h, i) (`rows`) or (b, h, j) (`cols`); the state part is
// written first, the dense contributions are added into the invocation's own output entries.
// No workgroup memory, no barriers.
// Dispatch: one invocation per row (train-attention-rows.wgsl) per entry.

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(7) var<storage, read> G: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(13) var<storage, read_write> dPhiQ: array<f32>;
@group(0) @binding(14) var<storage, read_write> dPhiK: array<f32>;
@group(0) @binding(15) var<storage, read_write> dV: array<f32>;

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let i = w.t;
  let gb = g_at(w, i);
  let qb = phi_at(w, i);
  if (U.mode != 2u) {
    let sb = state_at(w, i);
    for (var f = 0u; f < F; f++) {
      var acc = 0.0;
      for (var c = 0u; c < nc; c++) { acc = fma(St[sb + f * nc + c], G[gb + c], acc); }
      dPhiQ[qb + f] = acc;
    }
  } else {
    for (var f = 0u; f < F; f++) { dPhiQ[qb + f] = 0.0; }
  }
  let rg = row_range(i);
  for (var j = rg.x; j < rg.y; j++) {
    let vb = head_at(U.off_v, U.ld_v, w, j);
    var d = G[gb + dh];
    for (var c = 0u; c < dh; c++) { d = fma(G[gb + c], V[vb + c], d); }
    let kb = phi_at(w, j);
    for (var f = 0u; f < F; f++) { dPhiQ[qb + f] = fma(d, PhiK[kb + f], dPhiQ[qb + f]); }
  }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let j = w.t;
  let kb = phi_at(w, j);
  let vb = head_at(U.off_v, U.ld_v, w, j);
  let dvb = head_at(U.off_dv, U.ld_dv, w, j);
  if (U.mode != 2u) {
    let sb = state_at(w, j);
    for (var f = 0u; f < F; f++) {
      var acc = St[sb + f * nc + dh];
      for (var c = 0u; c < dh; c++) { acc = fma(St[sb + f * nc + c], V[vb + c], acc); }
      dPhiK[kb + f] = acc;
    }
    for (var c = 0u; c < dh; c++) {
      var acc = 0.0;
      for (var f = 0u; f < F; f++) { acc = fma(PhiK[kb + f], St[sb + f * nc + c], acc); }
      dV[dvb + c] = acc;
    }
  } else {
    for (var f = 0u; f < F; f++) { dPhiK[kb + f] = 0.0; }
    for (var c = 0u; c < dh; c++) { dV[dvb + c] = 0.0; }
  }
  let rg = col_range(j);
  for (var i = rg.x; i < rg.y; i++) {
    let qb = phi_at(w, i);
    var a = 0.0;
    for (var f = 0u; f < F; f++) { a = fma(PhiQ[qb + f], PhiK[kb + f], a); }
    let gb = g_at(w, i);
    var d = G[gb + dh];
    for (var c = 0u; c < dh; c++) { d = fma(G[gb + c], V[vb + c], d); }
    for (var f = 0u; f < F; f++) { dPhiK[kb + f] = fma(d, PhiQ[qb + f], dPhiK[kb + f]); }
    for (var c = 0u; c < dh; c++) { dV[dvb + c] = fma(a, G[gb + c], dV[dvb + c]); }
  }
}
