// Linear attention forward of the trainer (CPU twin: src/core/train/linear-attention-train.ts
// `linearAttentionForward`; dispatcher src/gpu/train/linear-attention.ts; layouts and modes in
// train-linear-attention-common.wgsl).
//
//   out_i = Σ_j a_ij v_j / den_i,  den_i = Σ_j a_ij + δ,  a_ij = φq_i·φk_j,  δ = 1e-6
//   j over all (mode 0: = φq_i [S | z] with the state of entry `state`), j ≤ i (mode 1:
//   φq_i·(exclusive prefix state of i's chunk) + the chunk's rows j ≤ i densely), or the window
//   (mode 2: densely). No L×L matrix: the dense part spans at most a chunk (16–64 rows, laChunk) or the window.
//
// Thread mapping: one invocation per block of 4 consecutive query rows i0 … i0+3 of one (b, h)
// (train-attention-rows.wgsl `attn_block`; a causal chunk is a multiple of 4 rows, so the block
// reads one state). No workgroup memory, no barriers. The scores are 4 × 4 register tiles
// (8 loads per 16 FMAs), out 4 rows × 8 columns (12 per 32; ~18% faster than 4 × 4 on SwiftShader;
// a Block4x8 summed by block4x8_fma, train-block8.wgsl, prepended by the dispatcher);
// one row per invocation summing into out in place paid 2–3 storage accesses per FMA, and on
// SwiftShader those gathers are what costs. First den's state part, then the
// dense a_ij (4 rows × 4 keys over f) into the scratch Sa (Sa[(bh·L + i)·span + j − jlo], zeros
// outside row i's range, jlo … jhi the block's union of ranges) and into den, then out by blocks
// of 8 columns: the state part over f, Σ_j a_ij v_j over the union, × 1/den. Rows past L read row
// L − 1 (clamped) and are not written. Sums run in the order of the unblocked kernel (f, then j).
// Dispatch: ⌈B·H·⌈L/4⌉ / 64⌉ workgroups of 64 (`amap`: one invocation per entry, below).

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(11) var<storage, read_write> Out: array<f32>;
@group(0) @binding(12) var<storage, read_write> DenOut: array<f32>;
@group(0) @binding(17) var<storage, read_write> Sa: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let L = U.L;
  let rv = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(L - 1u));
  let live = rv < vec4<u32>(L);
  let qb = vec4<u32>(phi_at(w, rc.x), phi_at(w, rc.y), phi_at(w, rc.z), phi_at(w, rc.w));
  let br = block_ranges(rc, false);
  let lo = br.lo;
  let hi = br.hi;
  let jlo = br.x;
  let jhi = br.y;
  let sb = state_at(w, rc.x);
  // den: the state part (column dh of [S | z]), then the dense a_ij in j order
  var den = vec4<f32>(0.0);
  if (U.mode != 2u) {
    for (var f = 0u; f < F; f++) {
      let z = vec4<f32>(St[sb + f * nc + dh]);
      den = fma(vec4<f32>(PhiQ[qb.x + f], PhiQ[qb.y + f], PhiQ[qb.z + f], PhiQ[qb.w + f]), z, den);
    }
  }
  let srow = (vec4<u32>(w.bh * L) + rc) * U.span;
  for (var j0 = jlo; j0 < jhi; j0 += 4u) {
    let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
    let jc = min(jv, vec4<u32>(jhi - 1u));
    let kb = vec4<u32>(phi_at(w, jc.x), phi_at(w, jc.y), phi_at(w, jc.z), phi_at(w, jc.w));
    var a0 = vec4<f32>(0.0); // row i0 + 0 over the 4 keys
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    for (var f = 0u; f < F; f++) {
      let kv = vec4<f32>(PhiK[kb.x + f], PhiK[kb.y + f], PhiK[kb.z + f], PhiK[kb.w + f]);
      a0 = fma(vec4<f32>(PhiQ[qb.x + f]), kv, a0);
      a1 = fma(vec4<f32>(PhiQ[qb.y + f]), kv, a1);
      a2 = fma(vec4<f32>(PhiQ[qb.z + f]), kv, a2);
      a3 = fma(vec4<f32>(PhiQ[qb.w + f]), kv, a3);
    }
    let n = min(4u, jhi - j0);
    let o = j0 - jlo;
    den.x = sa_row(live.x, srow.x + o, n, (jv >= vec4<u32>(lo.x)) & (jv < vec4<u32>(hi.x)), a0, den.x);
    den.y = sa_row(live.y, srow.y + o, n, (jv >= vec4<u32>(lo.y)) & (jv < vec4<u32>(hi.y)), a1, den.y);
    den.z = sa_row(live.z, srow.z + o, n, (jv >= vec4<u32>(lo.z)) & (jv < vec4<u32>(hi.z)), a2, den.z);
    den.w = sa_row(live.w, srow.w + o, n, (jv >= vec4<u32>(lo.w)) & (jv < vec4<u32>(hi.w)), a3, den.w);
  }
  den += vec4<f32>(DELTA);
  let inv = vec4<f32>(1.0) / den;
  // out by blocks of 8 columns (4 rows × 8 columns: 12 loads per 32 FMAs)
  let dl = vec4<u32>(dh - 1u);
  for (var c0 = 0u; c0 < dh; c0 += 8u) {
    let cv = min(vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u), dl);
    let cw = min(vec4<u32>(c0) + vec4<u32>(4u, 5u, 6u, 7u), dl);
    var op = Block4x8(); // c{r}h: row r, columns 4h … 4h + 3 of the block
    if (U.mode != 2u) {
      for (var f = 0u; f < F; f++) {
        let e = sb + f * nc;
        let sv = vec4<f32>(St[e + cv.x], St[e + cv.y], St[e + cv.z], St[e + cv.w]);
        let sw = vec4<f32>(St[e + cw.x], St[e + cw.y], St[e + cw.z], St[e + cw.w]);
        let q = vec4<f32>(PhiQ[qb.x + f], PhiQ[qb.y + f], PhiQ[qb.z + f], PhiQ[qb.w + f]);
        op = block4x8_fma(op, q, sv, sw);
      }
    }
    for (var j = jlo; j < jhi; j++) {
      let vb = head_at(U.off_v, U.ld_v, w, j);
      let vv = vec4<f32>(V[vb + cv.x], V[vb + cv.y], V[vb + cv.z], V[vb + cv.w]);
      let vw = vec4<f32>(V[vb + cw.x], V[vb + cw.y], V[vb + cw.z], V[vb + cw.w]);
      let s = j - jlo;
      let a = vec4<f32>(Sa[srow.x + s], Sa[srow.y + s], Sa[srow.z + s], Sa[srow.w + s]);
      op = block4x8_fma(op, a, vv, vw);
    }
    let n = min(4u, dh - c0);
    let n1 = min(8u, dh - c0) - n;
    let ob = vec4<u32>(head_at(U.off_o, U.ld_o, w, rv.x), head_at(U.off_o, U.ld_o, w, rv.y),
                       head_at(U.off_o, U.ld_o, w, rv.z), head_at(U.off_o, U.ld_o, w, rv.w)) + vec4<u32>(c0);
    put_out(live.x, ob.x, n, op.c00 * inv.x);
    put_out(live.y, ob.y, n, op.c10 * inv.y);
    put_out(live.z, ob.z, n, op.c20 * inv.z);
    put_out(live.w, ob.w, n, op.c30 * inv.w);
    put_out(live.x, ob.x + 4u, n1, op.c01 * inv.x);
    put_out(live.y, ob.y + 4u, n1, op.c11 * inv.y);
    put_out(live.z, ob.z + 4u, n1, op.c21 * inv.z);
    put_out(live.w, ob.w + 4u, n1, op.c31 * inv.w);
  }
  for (var r = 0u; r < 4u; r++) {
    if (live[r]) { DenOut[(w.b * L + rv[r]) * U.H + w.h] = den[r]; }
  }
}

/// One row's 4 dense scores a (keys j0 …) into its scratch row from o, the first n (keys < the
/// block's end): a where `ok` (the row's own range), else 0; returns den plus the ok scores in key
/// order. Straight-line with constant lanes (see put_out).
fn sa_row(live: bool, o: u32, n: u32, ok: vec4<bool>, a: vec4<f32>, den: f32) -> f32 {
  var d = den;
  if (ok.x) { d += a.x; }
  if (ok.y) { d += a.y; }
  if (ok.z) { d += a.z; }
  if (ok.w) { d += a.w; }
  if (live) {
    let v = select(vec4<f32>(0.0), a, ok);
    if (n > 0u) { Sa[o] = v.x; }
    if (n > 1u) { Sa[o + 1u] = v.y; }
    if (n > 2u) { Sa[o + 2u] = v.z; }
    if (n > 3u) { Sa[o + 3u] = v.w; }
  }
  return d;
}

/// The first n (≤ 4) lanes of v into Out from element o, straight-line: a loop indexing the
/// register tile dynamically is spilled and read back lane by lane on SwiftShader.
fn put_out(live: bool, o: u32, n: u32, v: vec4<f32>) {
  if (!live) { return; }
  if (n > 0u) { Out[o] = v.x; }
  if (n > 1u) { Out[o + 1u] = v.y; }
  if (n > 2u) { Out[o + 2u] = v.z; }
  if (n > 3u) { Out[o + 3u] = v.w; }
}

// entry `amap`: the attention matrix linear attention actually uses, for the panel's maps:
//   Â[((b·H + h)·L + i)·L + j] = φq_i·φk_j / den_i on the allowed (i, j) (causal j ≤ i; window
//   |i − j| < window), 0 elsewhere (twin: src/core/train/attention-layer.ts `attentionMatrices`).
// One invocation per entry; ⌈B·H·L·L / 64⌉ workgroups of @workgroup_size(64), split over (x, y).
@group(0) @binding(16) var<storage, read_write> Amap: array<f32>;

@compute @workgroup_size(64)
fn amap(@builtin(global_invocation_id) gid: vec3<u32>) {
  let L = U.L;
  let F = U.F;
  let id = flat_id(gid);
  if (id >= U.B * U.H * L * L) { return; }
  let j = id % L;
  let i = (id / L) % L;
  let bh = id / (L * L);
  let h = bh % U.H;
  let b = bh / U.H;
  var ok = true;
  if (U.causal == 1u && j > i) { ok = false; }
  if (U.window > 0u && max(i, j) - min(i, j) >= U.window) { ok = false; }
  var a = 0.0;
  if (ok) {
    let qb = ((b * L + i) * U.H + h) * F;
    let kb = ((b * L + j) * U.H + h) * F;
    for (var f = 0u; f < F; f++) { a = fma(PhiQ[qb + f], PhiK[kb + f], a); }
    a = a / DenOut[(b * L + i) * U.H + h];
  }
  Amap[id] = a;
}
