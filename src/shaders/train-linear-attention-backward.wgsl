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
// Thread mapping: one invocation per block of 4 consecutive rows i0 … i0+3 (`rows`) or keys
// j0 … j0+3 (`cols`) of one (b, h) (train-attention-rows.wgsl `attn_block`; a causal chunk is a
// multiple of 4, so a block reads one state). No workgroup memory, no barriers. The dense scores
// are 4 × 4 register tiles (8 loads per 16 FMAs), the outputs 4 × 8 (4 rows / keys × 8 features
// or columns: 12 loads per 32 FMAs, ~18% faster than 4 × 4 on SwiftShader; each a Block4x8 summed
// by block4x8_fma, train-block8.wgsl, prepended by the dispatcher); the unblocked kernel
// summed into its outputs in place, 2–3 storage accesses per FMA, and on SwiftShader those gathers
// are what costs. First the dense
// da_ij (and, in `cols`, a_ij) of the block's union of ranges into scratch rows (Sd, Sa:
// [(bh·L + row)·span + offset], zeros outside the row's own range), then the outputs by blocks of
// 8 features / columns: the state part, then the dense sum over the scratch row. Rows and keys
// past L read row L − 1 (clamped) and are not written. Sums run in the unblocked kernel's order.
// Dispatch: ⌈B·H·⌈L/4⌉ / 64⌉ workgroups of 64 per entry.

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(7) var<storage, read> G: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(13) var<storage, read_write> dPhiQ: array<f32>;
@group(0) @binding(14) var<storage, read_write> dPhiK: array<f32>;
@group(0) @binding(15) var<storage, read_write> dV: array<f32>;
@group(0) @binding(17) var<storage, read_write> Sa: array<f32>;
@group(0) @binding(18) var<storage, read_write> Sd: array<f32>;

fn vq(vb: vec4<u32>, c: u32) -> vec4<f32> { return vec4<f32>(V[vb.x + c], V[vb.y + c], V[vb.z + c], V[vb.w + c]); }
fn gq(gb: vec4<u32>, c: u32) -> vec4<f32> { return vec4<f32>(G[gb.x + c], G[gb.y + c], G[gb.z + c], G[gb.w + c]); }
fn pq(qb: vec4<u32>, f: u32) -> vec4<f32> {
  return vec4<f32>(PhiQ[qb.x + f], PhiQ[qb.y + f], PhiQ[qb.z + f], PhiQ[qb.w + f]);
}
fn pk(kb: vec4<u32>, f: u32) -> vec4<f32> {
  return vec4<f32>(PhiK[kb.x + f], PhiK[kb.y + f], PhiK[kb.z + f], PhiK[kb.w + f]);
}
fn vrows(w: AttnRow, t: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(head_at(U.off_v, U.ld_v, w, t.x), head_at(U.off_v, U.ld_v, w, t.y),
                   head_at(U.off_v, U.ld_v, w, t.z), head_at(U.off_v, U.ld_v, w, t.w));
}
fn grows(w: AttnRow, t: vec4<u32>) -> vec4<u32> { return vec4<u32>(g_at(w, t.x), g_at(w, t.y), g_at(w, t.z), g_at(w, t.w)); }
fn prows(w: AttnRow, t: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(phi_at(w, t.x), phi_at(w, t.y), phi_at(w, t.z), phi_at(w, t.w));
}

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let L = U.L;
  let rv = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(L - 1u));
  let live = rv < vec4<u32>(L);
  let gb = grows(w, rc);
  let qb = prows(w, rc);
  let br = block_ranges(rc, false);
  let lo = br.lo;
  let hi = br.hi;
  let jlo = br.x;
  let jhi = br.y;
  let srow = (vec4<u32>(w.bh * L) + rc) * U.span;
  // da_ij = g_i·[v_j, 1] (4 rows × 4 keys) into Sd
  let gz = gq(gb, dh);
  for (var j0 = jlo; j0 < jhi; j0 += 4u) {
    let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
    let vb = vrows(w, min(jv, vec4<u32>(jhi - 1u)));
    var d0 = vec4<f32>(gz.x);
    var d1 = vec4<f32>(gz.y);
    var d2 = vec4<f32>(gz.z);
    var d3 = vec4<f32>(gz.w);
    for (var c = 0u; c < dh; c++) {
      let vv = vq(vb, c);
      d0 = fma(vec4<f32>(G[gb.x + c]), vv, d0);
      d1 = fma(vec4<f32>(G[gb.y + c]), vv, d1);
      d2 = fma(vec4<f32>(G[gb.z + c]), vv, d2);
      d3 = fma(vec4<f32>(G[gb.w + c]), vv, d3);
    }
    let n = min(4u, jhi - j0);
    let o = j0 - jlo;
    put_sd(live.x, srow.x + o, n, select(vec4<f32>(0.0), d0, (jv >= vec4<u32>(lo.x)) & (jv < vec4<u32>(hi.x))));
    put_sd(live.y, srow.y + o, n, select(vec4<f32>(0.0), d1, (jv >= vec4<u32>(lo.y)) & (jv < vec4<u32>(hi.y))));
    put_sd(live.z, srow.z + o, n, select(vec4<f32>(0.0), d2, (jv >= vec4<u32>(lo.z)) & (jv < vec4<u32>(hi.z))));
    put_sd(live.w, srow.w + o, n, select(vec4<f32>(0.0), d3, (jv >= vec4<u32>(lo.w)) & (jv < vec4<u32>(hi.w))));
  }
  // dφq by blocks of 8 features (4 rows × 8 features: 12 loads per 32 FMAs): Σ_c St[f, c] g_i[c],
  // then Σ_j da_ij φk_j[f]
  let sb = state_at(w, rc.x);
  let fl = vec4<u32>(F - 1u);
  for (var f0 = 0u; f0 < F; f0 += 8u) {
    let fv = min(vec4<u32>(f0) + vec4<u32>(0u, 1u, 2u, 3u), fl);
    let fw = min(vec4<u32>(f0) + vec4<u32>(4u, 5u, 6u, 7u), fl);
    var dq4 = Block4x8(); // c{r}h: row r, columns 4h … 4h + 3 of the block
    if (U.mode != 2u) {
      let sf = vec4<u32>(sb) + fv * nc;
      let sg = vec4<u32>(sb) + fw * nc;
      for (var c = 0u; c < nc; c++) {
        let sv = vec4<f32>(St[sf.x + c], St[sf.y + c], St[sf.z + c], St[sf.w + c]);
        let sw = vec4<f32>(St[sg.x + c], St[sg.y + c], St[sg.z + c], St[sg.w + c]);
        let g = gq(gb, c);
        dq4 = block4x8_fma(dq4, g, sv, sw);
      }
    }
    for (var j = jlo; j < jhi; j++) {
      let kb = phi_at(w, j);
      let kv = vec4<f32>(PhiK[kb + fv.x], PhiK[kb + fv.y], PhiK[kb + fv.z], PhiK[kb + fv.w]);
      let kw = vec4<f32>(PhiK[kb + fw.x], PhiK[kb + fw.y], PhiK[kb + fw.z], PhiK[kb + fw.w]);
      let s = j - jlo;
      let d = vec4<f32>(Sd[srow.x + s], Sd[srow.y + s], Sd[srow.z + s], Sd[srow.w + s]);
      dq4 = block4x8_fma(dq4, d, kv, kw);
    }
    let n = min(4u, F - f0);
    let n1 = min(8u, F - f0) - n;
    put_dphiq(live.x, qb.x + f0, n, dq4.c00);
    put_dphiq(live.y, qb.y + f0, n, dq4.c10);
    put_dphiq(live.z, qb.z + f0, n, dq4.c20);
    put_dphiq(live.w, qb.w + f0, n, dq4.c30);
    put_dphiq(live.x, qb.x + f0 + 4u, n1, dq4.c01);
    put_dphiq(live.y, qb.y + f0 + 4u, n1, dq4.c11);
    put_dphiq(live.z, qb.z + f0 + 4u, n1, dq4.c21);
    put_dphiq(live.w, qb.w + f0 + 4u, n1, dq4.c31);
  }
}

// The tiles' epilogues: the first n (≤ 4) lanes of v from element o, straight-line with constant
// lanes (a loop indexing the register tile and the row vectors dynamically is spilled and read
// back lane by lane on SwiftShader).
fn put_sd(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { Sd[o] = v.x; }
  if (n > 1u) { Sd[o + 1u] = v.y; }
  if (n > 2u) { Sd[o + 2u] = v.z; }
  if (n > 3u) { Sd[o + 3u] = v.w; }
}

fn put_sa(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { Sa[o] = v.x; }
  if (n > 1u) { Sa[o + 1u] = v.y; }
  if (n > 2u) { Sa[o + 2u] = v.z; }
  if (n > 3u) { Sa[o + 3u] = v.w; }
}

fn put_dphiq(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { dPhiQ[o] = v.x; }
  if (n > 1u) { dPhiQ[o + 1u] = v.y; }
  if (n > 2u) { dPhiQ[o + 2u] = v.z; }
  if (n > 3u) { dPhiQ[o + 3u] = v.w; }
}

fn put_dphik(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { dPhiK[o] = v.x; }
  if (n > 1u) { dPhiK[o + 1u] = v.y; }
  if (n > 2u) { dPhiK[o + 2u] = v.z; }
  if (n > 3u) { dPhiK[o + 3u] = v.w; }
}

fn put_dv(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { dV[o] = v.x; }
  if (n > 1u) { dV[o + 1u] = v.y; }
  if (n > 2u) { dV[o + 2u] = v.z; }
  if (n > 3u) { dV[o + 3u] = v.w; }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let L = U.L;
  let kv4 = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let kc = min(kv4, vec4<u32>(L - 1u));
  let live = kv4 < vec4<u32>(L);
  let kb = prows(w, kc);
  let vb = vrows(w, kc);
  let br = block_ranges(kc, true);
  let lo = br.lo;
  let hi = br.hi;
  let ilo = br.x;
  let ihi = br.y;
  let srow = (vec4<u32>(w.bh * L) + kc) * U.span;
  // a_ij = φq_i·φk_j into Sa, da_ij = g_i·[v_j, 1] into Sd (4 keys × 4 queries)
  for (var i0 = ilo; i0 < ihi; i0 += 4u) {
    let iv = vec4<u32>(i0) + vec4<u32>(0u, 1u, 2u, 3u);
    let ic = min(iv, vec4<u32>(ihi - 1u));
    let qb = prows(w, ic);
    let gb = grows(w, ic);
    var a0 = vec4<f32>(0.0); // key j0 + 0 over the 4 queries
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    for (var f = 0u; f < F; f++) {
      let qv = pq(qb, f);
      a0 = fma(qv, vec4<f32>(PhiK[kb.x + f]), a0);
      a1 = fma(qv, vec4<f32>(PhiK[kb.y + f]), a1);
      a2 = fma(qv, vec4<f32>(PhiK[kb.z + f]), a2);
      a3 = fma(qv, vec4<f32>(PhiK[kb.w + f]), a3);
    }
    let gz = gq(gb, dh);
    var d0 = gz;
    var d1 = gz;
    var d2 = gz;
    var d3 = gz;
    for (var c = 0u; c < dh; c++) {
      let gv = gq(gb, c);
      d0 = fma(gv, vec4<f32>(V[vb.x + c]), d0);
      d1 = fma(gv, vec4<f32>(V[vb.y + c]), d1);
      d2 = fma(gv, vec4<f32>(V[vb.z + c]), d2);
      d3 = fma(gv, vec4<f32>(V[vb.w + c]), d3);
    }
    let n = min(4u, ihi - i0);
    let o = i0 - ilo;
    let ok0 = (iv >= vec4<u32>(lo.x)) & (iv < vec4<u32>(hi.x));
    let ok1 = (iv >= vec4<u32>(lo.y)) & (iv < vec4<u32>(hi.y));
    let ok2 = (iv >= vec4<u32>(lo.z)) & (iv < vec4<u32>(hi.z));
    let ok3 = (iv >= vec4<u32>(lo.w)) & (iv < vec4<u32>(hi.w));
    let z = vec4<f32>(0.0);
    put_sa(live.x, srow.x + o, n, select(z, a0, ok0));
    put_sd(live.x, srow.x + o, n, select(z, d0, ok0));
    put_sa(live.y, srow.y + o, n, select(z, a1, ok1));
    put_sd(live.y, srow.y + o, n, select(z, d1, ok1));
    put_sa(live.z, srow.z + o, n, select(z, a2, ok2));
    put_sd(live.z, srow.z + o, n, select(z, d2, ok2));
    put_sa(live.w, srow.w + o, n, select(z, a3, ok3));
    put_sd(live.w, srow.w + o, n, select(z, d3, ok3));
  }
  let sb = state_at(w, kc.x);
  // dφk by blocks of 8 features (4 keys × 8 features: 12 loads per 32 FMAs): R[f, dh] +
  // Σ_c R[f, c] v_j[c], then Σ_i da_ij φq_i[f]
  let fl = vec4<u32>(F - 1u);
  for (var f0 = 0u; f0 < F; f0 += 8u) {
    let fv = min(vec4<u32>(f0) + vec4<u32>(0u, 1u, 2u, 3u), fl);
    let fw = min(vec4<u32>(f0) + vec4<u32>(4u, 5u, 6u, 7u), fl);
    var dk4 = Block4x8(); // c{r}h: row r, columns 4h … 4h + 3 of the block
    if (U.mode != 2u) {
      let sf = vec4<u32>(sb) + fv * nc;
      let sg = vec4<u32>(sb) + fw * nc;
      let z = vec4<f32>(St[sf.x + dh], St[sf.y + dh], St[sf.z + dh], St[sf.w + dh]);
      let z1 = vec4<f32>(St[sg.x + dh], St[sg.y + dh], St[sg.z + dh], St[sg.w + dh]);
      dk4 = Block4x8(z, z1, z, z1, z, z1, z, z1);
      for (var c = 0u; c < dh; c++) {
        let sv = vec4<f32>(St[sf.x + c], St[sf.y + c], St[sf.z + c], St[sf.w + c]);
        let sw = vec4<f32>(St[sg.x + c], St[sg.y + c], St[sg.z + c], St[sg.w + c]);
        let vv = vq(vb, c);
        dk4 = block4x8_fma(dk4, vv, sv, sw);
      }
    }
    for (var i = ilo; i < ihi; i++) {
      let qb = phi_at(w, i);
      let qv = vec4<f32>(PhiQ[qb + fv.x], PhiQ[qb + fv.y], PhiQ[qb + fv.z], PhiQ[qb + fv.w]);
      let qw = vec4<f32>(PhiQ[qb + fw.x], PhiQ[qb + fw.y], PhiQ[qb + fw.z], PhiQ[qb + fw.w]);
      let s = i - ilo;
      let d = vec4<f32>(Sd[srow.x + s], Sd[srow.y + s], Sd[srow.z + s], Sd[srow.w + s]);
      dk4 = block4x8_fma(dk4, d, qv, qw);
    }
    let n = min(4u, F - f0);
    let n1 = min(8u, F - f0) - n;
    put_dphik(live.x, kb.x + f0, n, dk4.c00);
    put_dphik(live.y, kb.y + f0, n, dk4.c10);
    put_dphik(live.z, kb.z + f0, n, dk4.c20);
    put_dphik(live.w, kb.w + f0, n, dk4.c30);
    put_dphik(live.x, kb.x + f0 + 4u, n1, dk4.c01);
    put_dphik(live.y, kb.y + f0 + 4u, n1, dk4.c11);
    put_dphik(live.z, kb.z + f0 + 4u, n1, dk4.c21);
    put_dphik(live.w, kb.w + f0 + 4u, n1, dk4.c31);
  }
  // dv by blocks of 8 columns (4 keys × 8 columns): Σ_f φk_j[f] R[f, c], then Σ_i a_ij g_i[c]
  let dl = vec4<u32>(dh - 1u);
  for (var c0 = 0u; c0 < dh; c0 += 8u) {
    let cv = min(vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u), dl);
    let cw = min(vec4<u32>(c0) + vec4<u32>(4u, 5u, 6u, 7u), dl);
    var dv4 = Block4x8(); // c{r}h: row r, columns 4h … 4h + 3 of the block
    if (U.mode != 2u) {
      for (var f = 0u; f < F; f++) {
        let e = sb + f * nc;
        let sv = vec4<f32>(St[e + cv.x], St[e + cv.y], St[e + cv.z], St[e + cv.w]);
        let sw = vec4<f32>(St[e + cw.x], St[e + cw.y], St[e + cw.z], St[e + cw.w]);
        let k = pk(kb, f);
        dv4 = block4x8_fma(dv4, k, sv, sw);
      }
    }
    for (var i = ilo; i < ihi; i++) {
      let gb = g_at(w, i);
      let gv = vec4<f32>(G[gb + cv.x], G[gb + cv.y], G[gb + cv.z], G[gb + cv.w]);
      let gw = vec4<f32>(G[gb + cw.x], G[gb + cw.y], G[gb + cw.z], G[gb + cw.w]);
      let s = i - ilo;
      let x = vec4<f32>(Sa[srow.x + s], Sa[srow.y + s], Sa[srow.z + s], Sa[srow.w + s]);
      dv4 = block4x8_fma(dv4, x, gv, gw);
    }
    let n = min(4u, dh - c0);
    let n1 = min(8u, dh - c0) - n;
    put_dv(live.x, head_at(U.off_dv, U.ld_dv, w, kv4.x) + c0, n, dv4.c00);
    put_dv(live.y, head_at(U.off_dv, U.ld_dv, w, kv4.y) + c0, n, dv4.c10);
    put_dv(live.z, head_at(U.off_dv, U.ld_dv, w, kv4.z) + c0, n, dv4.c20);
    put_dv(live.w, head_at(U.off_dv, U.ld_dv, w, kv4.w) + c0, n, dv4.c30);
    put_dv(live.x, head_at(U.off_dv, U.ld_dv, w, kv4.x) + c0 + 4u, n1, dv4.c01);
    put_dv(live.y, head_at(U.off_dv, U.ld_dv, w, kv4.y) + c0 + 4u, n1, dv4.c11);
    put_dv(live.z, head_at(U.off_dv, U.ld_dv, w, kv4.z) + c0 + 4u, n1, dv4.c21);
    put_dv(live.w, head_at(U.off_dv, U.ld_dv, w, kv4.w) + c0 + 4u, n1, dv4.c31);
  }
}
