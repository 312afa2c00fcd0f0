// Softmax attention forward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionForward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// Per sequence b, head h (columns h·dh … of Q, K, V), query i:
//   s_ij = q_i·k_j / √dh             (j ≤ i when causal; masked entries are P = 0)
//   P_ij = exp(s_ij − max_j s_ij) / Σ_j exp(s_ij − max_j s_ij)
//   out_i = Σ_j P_ij v_j
// P is kept for the backward pass: P[((b·H + h)·L + i)·L + j] (B·H·L·L, zeros above the diagonal
// when causal). Q, K, V, out are strided views (uniform and views: train-softmax-attention-common.wgsl).
//
// Thread mapping: one invocation per block of 8 consecutive query rows i0 … i0+7 of one (b, h)
// (train-attention-rows.wgsl `attn_block8`), no workgroup memory and no barriers. The scores are
// 8 × 8 register tiles (8 rows × 8 keys: per c, 8 + 8 loads for 64 FMAs) written into the
// block's own rows of P, which then hold exp and finally the probabilities; out is 8 × 8 tiles
// (8 rows × 8 columns) summed over the keys in registers. The score tile is a Block8 summed by
// block8_fma (train-block8.wgsl, prepended by the dispatcher); the out tile stays written out, each
// row's P load beside its two FMAs (as one Block8 step, its 8 loads first, the causal forward ran
// 1–4% slower in 4 interleaved A/B runs on SwiftShader: near this machine's noise, but not
// faster). Why the tiles: on SwiftShader every storage access is a per-lane gather with a bounds
// check and costs more than the FMAs — one row per invocation, summing into out in place, paid
// 2–3 accesses per FMA; and one-row-per-workgroup kernels with tree reductions ran 6–10× slower
// still (its cost is per workgroup and per barrier).
// Rows and keys past L read row L − 1 (clamped) and are never written. Sums run in j resp. c
// order, one fma chain per output, as before the blocking.
//
// Dispatch: ⌈B·H·⌈L/8⌉ / 16⌉ workgroups of 16 (train-attention-rows.wgsl, attn_block8_out).

@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Pm: array<f32>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block8(gid);
  if (attn_block8_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let step = vec4<u32>(0u, 1u, 2u, 3u);
  let last = vec4<u32>(L - 1u);
  let b8 = rows8(w);
  let jmax = b8.jmax;
  let prow = b8.prow;
  let rvs = b8.rv;
  let jends = b8.jend;
  let qa = heads4(U.off_q, U.ld_q, w, b8.rc0);
  let qb = heads4(U.off_q, U.ld_q, w, b8.rc1);
  var mx = array<f32, 8>(-3.0e38, -3.0e38, -3.0e38, -3.0e38, -3.0e38, -3.0e38, -3.0e38, -3.0e38);
  // scores, 8 keys at a time: s_r = (s_{r, j0 …}) as two vec4 halves
  for (var j0 = 0u; j0 < jmax; j0 += 8u) {
    let jc0 = min(vec4<u32>(j0) + step, last);
    let jc1 = min(vec4<u32>(j0 + 4u) + step, last);
    let ka = heads4(U.off_k, U.ld_k, w, jc0);
    let kb = heads4(U.off_k, U.ld_k, w, jc1);
    var st = Block8();
    for (var c = 0u; c < dh; c++) {
      let k0 = vec4<f32>(K[ka.x + c], K[ka.y + c], K[ka.z + c], K[ka.w + c]);
      let k1 = vec4<f32>(K[kb.x + c], K[kb.y + c], K[kb.z + c], K[kb.w + c]);
      let x0 = vec4<f32>(Q[qa.x + c], Q[qa.y + c], Q[qa.z + c], Q[qa.w + c]);
      let x1 = vec4<f32>(Q[qb.x + c], Q[qb.y + c], Q[qb.z + c], Q[qb.w + c]);
      st = block8_fma(st, x0, x1, k0, k1);
    }
    mx[0] = score_row(rvs[0] < L, prow[0] + j0, jends[0] - min(jends[0], j0), st.c00 * U.scale, st.c01 * U.scale, mx[0]);
    mx[1] = score_row(rvs[1] < L, prow[1] + j0, jends[1] - min(jends[1], j0), st.c10 * U.scale, st.c11 * U.scale, mx[1]);
    mx[2] = score_row(rvs[2] < L, prow[2] + j0, jends[2] - min(jends[2], j0), st.c20 * U.scale, st.c21 * U.scale, mx[2]);
    mx[3] = score_row(rvs[3] < L, prow[3] + j0, jends[3] - min(jends[3], j0), st.c30 * U.scale, st.c31 * U.scale, mx[3]);
    mx[4] = score_row(rvs[4] < L, prow[4] + j0, jends[4] - min(jends[4], j0), st.c40 * U.scale, st.c41 * U.scale, mx[4]);
    mx[5] = score_row(rvs[5] < L, prow[5] + j0, jends[5] - min(jends[5], j0), st.c50 * U.scale, st.c51 * U.scale, mx[5]);
    mx[6] = score_row(rvs[6] < L, prow[6] + j0, jends[6] - min(jends[6], j0), st.c60 * U.scale, st.c61 * U.scale, mx[6]);
    mx[7] = score_row(rvs[7] < L, prow[7] + j0, jends[7] - min(jends[7], j0), st.c70 * U.scale, st.c71 * U.scale, mx[7]);
  }
  // exp, the row sums, then the probabilities (zeros past each row's end)
  for (var r = 0u; r < 8u; r++) {
    if (rvs[r] >= L) { continue; }
    let pr = prow[r];
    var sum = 0.0;
    for (var j = 0u; j < jends[r]; j++) {
      let e = exp(Pm[pr + j] - mx[r]);
      Pm[pr + j] = e;
      sum += e;
    }
    let inv = 1.0 / sum;
    for (var j = 0u; j < L; j++) {
      var p = 0.0;
      if (j < jends[r]) { p = Pm[pr + j] * inv; }
      Pm[pr + j] = p;
    }
  }
  // out: 8 rows × 8 columns at a time, summed over the keys (P is 0 past each row's end)
  let dl = vec4<u32>(dh - 1u);
  for (var c0 = 0u; c0 < dh; c0 += 8u) {
    let cv0 = min(vec4<u32>(c0) + step, dl);
    let cv1 = min(vec4<u32>(c0 + 4u) + step, dl);
    var o00 = vec4<f32>(0.0);
    var o01 = vec4<f32>(0.0);
    var o10 = vec4<f32>(0.0);
    var o11 = vec4<f32>(0.0);
    var o20 = vec4<f32>(0.0);
    var o21 = vec4<f32>(0.0);
    var o30 = vec4<f32>(0.0);
    var o31 = vec4<f32>(0.0);
    var o40 = vec4<f32>(0.0);
    var o41 = vec4<f32>(0.0);
    var o50 = vec4<f32>(0.0);
    var o51 = vec4<f32>(0.0);
    var o60 = vec4<f32>(0.0);
    var o61 = vec4<f32>(0.0);
    var o70 = vec4<f32>(0.0);
    var o71 = vec4<f32>(0.0);
    for (var j = 0u; j < jmax; j++) {
      let vb = head_at(U.off_v, U.ld_v, w, j);
      let v0 = vec4<f32>(V[vb + cv0.x], V[vb + cv0.y], V[vb + cv0.z], V[vb + cv0.w]);
      let v1 = vec4<f32>(V[vb + cv1.x], V[vb + cv1.y], V[vb + cv1.z], V[vb + cv1.w]);
      let p0 = vec4<f32>(Pm[prow[0] + j]);
      o00 = fma(p0, v0, o00);
      o01 = fma(p0, v1, o01);
      let p1 = vec4<f32>(Pm[prow[1] + j]);
      o10 = fma(p1, v0, o10);
      o11 = fma(p1, v1, o11);
      let p2 = vec4<f32>(Pm[prow[2] + j]);
      o20 = fma(p2, v0, o20);
      o21 = fma(p2, v1, o21);
      let p3 = vec4<f32>(Pm[prow[3] + j]);
      o30 = fma(p3, v0, o30);
      o31 = fma(p3, v1, o31);
      let p4 = vec4<f32>(Pm[prow[4] + j]);
      o40 = fma(p4, v0, o40);
      o41 = fma(p4, v1, o41);
      let p5 = vec4<f32>(Pm[prow[5] + j]);
      o50 = fma(p5, v0, o50);
      o51 = fma(p5, v1, o51);
      let p6 = vec4<f32>(Pm[prow[6] + j]);
      o60 = fma(p6, v0, o60);
      o61 = fma(p6, v1, o61);
      let p7 = vec4<f32>(Pm[prow[7] + j]);
      o70 = fma(p7, v0, o70);
      o71 = fma(p7, v1, o71);
    }
    let nc = min(8u, dh - c0);
    out_row(rvs[0] < L, head_at(U.off_o, U.ld_o, w, rvs[0]) + c0, nc, o00, o01);
    out_row(rvs[1] < L, head_at(U.off_o, U.ld_o, w, rvs[1]) + c0, nc, o10, o11);
    out_row(rvs[2] < L, head_at(U.off_o, U.ld_o, w, rvs[2]) + c0, nc, o20, o21);
    out_row(rvs[3] < L, head_at(U.off_o, U.ld_o, w, rvs[3]) + c0, nc, o30, o31);
    out_row(rvs[4] < L, head_at(U.off_o, U.ld_o, w, rvs[4]) + c0, nc, o40, o41);
    out_row(rvs[5] < L, head_at(U.off_o, U.ld_o, w, rvs[5]) + c0, nc, o50, o51);
    out_row(rvs[6] < L, head_at(U.off_o, U.ld_o, w, rvs[6]) + c0, nc, o60, o61);
    out_row(rvs[7] < L, head_at(U.off_o, U.ld_o, w, rvs[7]) + c0, nc, o70, o71);
  }
}

/// One row's 8 scores (lo, hi) of keys j0 … j0+7 into P from e = its entry of key j0, the first
/// `n` of them (keys < the row's end); returns the row's running max. Straight-line, constant
/// lanes: a per-entry loop indexing the tile's registers dynamically is spilled to memory and
/// read back lane by lane on SwiftShader.
fn score_row(valid: bool, e: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>, m: f32) -> f32 {
  if (!valid) { return m; }
  var x = m;
  if (n > 0u) { Pm[e] = lo.x; x = max(x, lo.x); }
  if (n > 1u) { Pm[e + 1u] = lo.y; x = max(x, lo.y); }
  if (n > 2u) { Pm[e + 2u] = lo.z; x = max(x, lo.z); }
  if (n > 3u) { Pm[e + 3u] = lo.w; x = max(x, lo.w); }
  if (n > 4u) { Pm[e + 4u] = hi.x; x = max(x, hi.x); }
  if (n > 5u) { Pm[e + 5u] = hi.y; x = max(x, hi.y); }
  if (n > 6u) { Pm[e + 6u] = hi.z; x = max(x, hi.z); }
  if (n > 7u) { Pm[e + 7u] = hi.w; x = max(x, hi.w); }
  return x;
}

/// One row's 8 outputs (lo, hi) into O from element o, the first n (≤ 8) of them.
fn out_row(valid: bool, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (!valid) { return; }
  if (n == 8u) {
    O[o] = lo.x;
    O[o + 1u] = lo.y;
    O[o + 2u] = lo.z;
    O[o + 3u] = lo.w;
    O[o + 4u] = hi.x;
    O[o + 5u] = hi.y;
    O[o + 6u] = hi.z;
    O[o + 7u] = hi.w;
    return;
  }
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var x = 0u; x < n; x++) { O[o + x] = vs[x / 4u][x % 4u]; }
}
