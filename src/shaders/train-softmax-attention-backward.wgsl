// Softmax attention backward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionBackward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// With P from the forward pass (P[((b·H + h)·L + i)·L + j]) and dO = ∂loss/∂out, per (b, h):
//   dP_ij = dO_i·v_j,   D_i = Σ_j P_ij dP_ij,   dS_ij = P_ij (dP_ij − D_i)
//   dQ_i = Σ_j dS_ij k_j / √dh            (entry `rows`, one invocation per query row i)
//   dK_j = Σ_i dS_ij q_i / √dh,  dV_j = Σ_i P_ij dO_i   (entry `cols`, one invocation per key j)
// Causal: only j ≤ i (P and dS are zero above the diagonal; `cols` reads i ≥ j only). dS goes
// through a scratch buffer of P's shape, written by `rows` (each invocation its own row: first
// dP, then dS) and read by `cols` (two passes in order: WebGPU orders the passes of one encoder).
// Views and uniform: train-softmax-attention-common.wgsl (its view `o` is dOut here).
//
// Thread mapping: one invocation per row (`rows`) or key (`cols`), no workgroup memory, no
// barriers (see the forward shader for why).
// Dispatch: one invocation per row (train-attention-rows.wgsl) per entry.

@group(0) @binding(4) var<storage, read> Pm: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read_write> dS: array<f32>;
@group(0) @binding(7) var<storage, read_write> dQ: array<f32>;
@group(0) @binding(8) var<storage, read_write> dK: array<f32>;
@group(0) @binding(9) var<storage, read_write> dV: array<f32>;

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let i = w.t;
  let jend = key_end(i);
  let prow = w.r * L;
  let ob = head_at(U.off_o, U.ld_o, w, i);
  var D = 0.0;
  for (var j = 0u; j < jend; j++) {
    let vb = head_at(U.off_v, U.ld_v, w, j);
    var d = 0.0;
    for (var c = 0u; c < dh; c++) { d = fma(dO[ob + c], V[vb + c], d); }
    dS[prow + j] = d;
    D = fma(Pm[prow + j], d, D);
  }
  for (var j = 0u; j < L; j++) {
    var ds = 0.0;
    if (j < jend) { ds = Pm[prow + j] * (dS[prow + j] - D); }
    dS[prow + j] = ds;
  }
  // dQ_i accumulates in place, key by key (rows of K read contiguously), scaled at the end
  let qo = head_at(U.off_dq, U.ld_dq, w, i);
  for (var c = 0u; c < dh; c++) { dQ[qo + c] = 0.0; }
  for (var j = 0u; j < jend; j++) {
    let ds = dS[prow + j];
    let kb = head_at(U.off_k, U.ld_k, w, j);
    for (var c = 0u; c < dh; c++) { dQ[qo + c] = fma(ds, K[kb + c], dQ[qo + c]); }
  }
  for (var c = 0u; c < dh; c++) { dQ[qo + c] = dQ[qo + c] * U.scale; }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let j = w.t;
  var istart = 0u;
  if (U.causal == 1u) { istart = j; }
  // dV_j, dK_j accumulate in place, query by query: column j of P and dS is read once, rows of
  // dO and Q contiguously
  let pc = w.bh * L * L + j;
  let vo = head_at(U.off_dv, U.ld_dv, w, j);
  let ko = head_at(U.off_dk, U.ld_dk, w, j);
  for (var c = 0u; c < dh; c++) {
    dV[vo + c] = 0.0;
    dK[ko + c] = 0.0;
  }
  for (var i = istart; i < L; i++) {
    let e = pc + i * L;
    let p = Pm[e];
    let ds = dS[e];
    let ob = head_at(U.off_o, U.ld_o, w, i);
    let qb = head_at(U.off_q, U.ld_q, w, i);
    for (var c = 0u; c < dh; c++) {
      dV[vo + c] = fma(p, dO[ob + c], dV[vo + c]);
      dK[ko + c] = fma(ds, Q[qb + c], dK[ko + c]);
    }
  }
  for (var c = 0u; c < dh; c++) { dK[ko + c] = dK[ko + c] * U.scale; }
}
