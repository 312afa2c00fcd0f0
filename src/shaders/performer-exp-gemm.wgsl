// performer-exp-gemm.wgsl — Performer attention for the exp-of-projection maps (positive,
// hyperbolic, exp) as GEMMs over the projections U of favor-projection.wgsl, exp applied as tiles
// are loaded (φ is never materialized):
//   φ(x_i)_f = ratio·(exp(σ_f·u_{i,r(f)} − off_i) + ε),  off_i = hn_i·[positive, hyperbolic] + shift_i,
//   σ_f = −1 for the second hyperbolic block (f ≥ nu, r = f − nu), else +1, r(f) = f;
//   shift = qstats[i].x (query row max) or kstats[0].x (global key max).
//   With fm.phi_direct = 1 U holds φ itself (any map, materialized by favor-features.wgsl; nu = m',
//   one block): φ_f = u_f, off = 0, hn unread — the maps without an exp-of-projection form take the same GEMMs
//   (performer-exp.ts materializedProjection) instead of the on-the-fly tiles of
//   performer-bidirectional.wgsl / performer-causal.wgsl, whose barriers cost more than the work at small m'.
//   kv_gemm      split-K over key chunks p:  part[p] = Σ_{j∈p} φ(k_j) [v_j | 1]   (m' × (d+1): S rows, then z)
//   out_gemm     over feature tiles:          out_i = φ(q_i)ᵀ S / φ(q_i)·z       (state = Σ_p part[p])
//   causal_fused causal, chunks of C rows:    out_i = [φ(q_i)ᵀ S_{<p} + Σ_{pC ≤ j ≤ i} (φ(q_i)·φ(k_j)) v_j]
//                                                     / [φ(q_i)·z_{<p} + Σ_{pC ≤ j ≤ i} φ(q_i)·φ(k_j)]
//                the inter-chunk part is out_gemm's loop on the exclusive prefix state S_{<p} (from
//                kv_gemm's chunk states and causal_prefix of performer-causal.wgsl); the chunk's
//                quadratic part G = φ(Q_tile) φ(K_sub)ᵀ is formed in registers, masked (j ≤ i) and
//                multiplied into the same accumulators — no n×C matrix in memory.
// Layouts and the output contract (n×d outputs, then the n row normalizers; a zero normalizer
// gives a zero row) are those of performer-bidirectional.wgsl / performer-causal.wgsl, so the
// prefix scan and the host's zero-normalizer count are shared.
// Prepended by feature-map-common.wgsl (FmParams at binding 0, qstats 4, kstats 5).
// CPU twin: src/core/linear-attention.ts linearAttentionOutput (with core/feature-maps.ts features).
//
// Thread mapping: 64 invocations; g = lid / 4 (16 groups of 4 rows, 4 features or 4 keys),
// cg = lid % 4. A workgroup owns one column tile of 64 output columns (ct = its index mod
// T = ⌈d/64⌉, vec4 columns cb4 = 16·ct ..): invocation cg holds columns cb + 4·(cg·CV + x) .. +3,
// x < CV = min(4, ⌈⌈d/4⌉/4⌉), as a 4 × 4·CV register block (16 vec4 at most, named registers) plus
// 4 normalizers. For d > 64 each column tile recomputes its φ tiles (and, causal, its Gram block):
// the exp and Gram work grows with T, the GEMM work does not. z and the row normalizers are
// written by column tile 0.
//   kv_gemm:      64 features per workgroup; per key of the chunk, in order, each invocation forms
//                 φ of its 4 features (one vector exp) and reads its V columns from storage.
//                 Dispatch nchunks · ⌈m'/64⌉ · T (FmParams chunk, nchunks).
//   out_gemm:     64 query rows per workgroup; per feature, in order, each invocation forms φ of
//                 its 4 rows (offsets formed once) and reads S and z from storage. Dispatch ⌈n/64⌉ · T.
//                 Neither has workgroup memory or a barrier: on SwiftShader a shader with a barrier
//                 pays ~0.2 ms per workgroup, reached or not, and zero-fills the workgroup memory it
//                 uses (npm run bench:primitives), more than the 4× repeated exps cost; tiled through
//                 workgroup memory with 2 barriers per step they took 3.3× (kv) and 2.5× (out) as long.
//   causal_fused: per key block of 64 keys of the chunk (up to the tile's last row; one block when
//                 C = 64): one loop over feature steps of 16 loads the φ(Q) tile once and feeds both
//                 G = φ(Q)φ(K_block)ᵀ (4 rows × 16 keys per thread, registers) and, for the first
//                 block, the inter-chunk part φ(Q)ᵀ S_{<p} (state tile at the chunk's prefix); then
//                 per 16-key sub-tile the masked G (j ≤ i) and V go through workgroup memory for
//                 G·V into the same accumulators. Dispatch ⌈n/64⌉ · T (C a multiple of 64).
// Row blocks: U may hold one block of rows only (FmParams a0 = first row u0, a1 = block rows B;
// row i of side s at (s·B + i − u0)·nu, see favor-projection.wgsl); each dispatch then covers the
// chunks (kv_gemm) or 64-row tiles (out_gemm, causal_fused) of rows u0 .. min(n, u0 + B) − 1, and B
// is a multiple of the chunk, so no chunk or key block crosses a block. Unblocked: u0 = 0, B = n.
// Workgroup ids are linearised id.x + id.y·num_workgroups.x.
//
// Bindings: 6 U (read, U_Q then U_K), 7 hn (read, hn_Q then hn_K), 8 V (vec4 rows),
// 9 part (rw), 10 state / causal workspace (read), 11 out (rw, n·d + n).

override CV: u32 = 4u;

const XG: u32 = 16u;   // groups of 4 rows / features / keys per tile → 64
const KT: u32 = 16u;   // keys per sub-tile
const FS: u32 = 16u;   // features per step

@group(0) @binding(6) var<storage, read> xg_u: array<f32>;
@group(0) @binding(7) var<storage, read> xg_hn: array<f32>;
@group(0) @binding(8) var<storage, read> xg_v: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> xg_part: array<f32>;
@group(0) @binding(10) var<storage, read> xg_state: array<f32>;
@group(0) @binding(11) var<storage, read_write> xg_out: array<f32>;

var<workgroup> xg_a: array<vec4f, 256>;   // φ tile: [key or feature step l][group] → 4 features or 4 rows
var<workgroup> xg_b: array<vec4f, 256>;   // V tile or state tile: [l][vec4 column < 4·CV]
var<workgroup> xg_c: array<vec4f, 256>;   // causal: φ(K) tile [feature l][key quad of 64 keys]
var<workgroup> xg_koffs: array<f32, 64>;  // causal: key offsets of the key block
var<workgroup> xg_z: array<f32, 16>;
var<workgroup> xg_offs: array<f32, 64>;   // query row offsets of the tile

// Register block of one invocation: aX_R holds columns 4·(cg·CV + X) .. +3 of row (feature) R.
// Named fields, not an array: a private array indexed by a loop variable is spilled to memory and
// every update becomes a gather and a scatter on a SIMD rasterizer (SwiftShader), which cost more
// than the GEMM step itself; named fields with CV-guarded blocks stay in registers.
struct XgAcc {
  a0_0: vec4f, a0_1: vec4f, a0_2: vec4f, a0_3: vec4f,
  a1_0: vec4f, a1_1: vec4f, a1_2: vec4f, a1_3: vec4f,
  a2_0: vec4f, a2_1: vec4f, a2_2: vec4f, a2_3: vec4f,
  a3_0: vec4f, a3_1: vec4f, a3_2: vec4f, a3_3: vec4f,
  den: vec4f,
}

/// Entry (x, row a) of the register block (epilogues only: a switch, not a hot loop).
fn xg_get(acc: ptr<function, XgAcc>, x: u32, a: u32) -> vec4f {
  switch (x * 4u + a) {
    case 0u: { return (*acc).a0_0; }
    case 1u: { return (*acc).a0_1; }
    case 2u: { return (*acc).a0_2; }
    case 3u: { return (*acc).a0_3; }
    case 4u: { return (*acc).a1_0; }
    case 5u: { return (*acc).a1_1; }
    case 6u: { return (*acc).a1_2; }
    case 7u: { return (*acc).a1_3; }
    case 8u: { return (*acc).a2_0; }
    case 9u: { return (*acc).a2_1; }
    case 10u: { return (*acc).a2_2; }
    case 11u: { return (*acc).a2_3; }
    case 12u: { return (*acc).a3_0; }
    case 13u: { return (*acc).a3_1; }
    case 14u: { return (*acc).a3_2; }
    default: { return (*acc).a3_3; }
  }
}

/// Column tiles of 64 output columns (d > 64 runs ⌈d/64⌉ workgroups per row tile / feature tile).
fn xg_ctiles() -> u32 {
  return (fm.d + 63u) / 64u;
}

fn cg_of(lid: u32) -> u32 {
  return lid % 4u;
}

/// Float index of row `row` (u0 ≤ row < u0 + B) of side `side` in the U block.
fn xg_urow(side: u32, row: u32) -> u32 {
  return (side * fm.a1 + (row - fm.a0)) * fm.nu;
}

/// One past the last row of the current block.
fn xg_block_end() -> u32 {
  return min(fm.n, fm.a0 + fm.a1);
}

/// off = hn·[positive, hyperbolic] + shift of row `row` of side `side` (row < n).
fn xg_off(side: u32, row: u32) -> f32 {
  if (fm.phi_direct == 1u) {
    return 0.0;
  }
  var shift = fm_kstats[0].x;
  if (side == FM_QUERY) {
    shift = fm_qstats[row].x;
  }
  if (fm.kind == FM_EXP) {
    return shift;
  }
  return xg_hn[side * fm.n + row] + shift;
}

/// φ of features f .. f+3 of one row (side, row < n), offset off; entries past m' are 0. One
/// index computation and one vector exp for the four (the scalar xg_phi per entry costs as much as
/// the GEMM step that consumes it on a CPU rasterizer).
fn xg_phi4_feats(side: u32, row: u32, f: u32, off: f32) -> vec4f {
  let nu = fm.nu;
  let base = xg_urow(side, row);
  var u = vec4f(0.0);
  if (f + 3u < nu) {
    u = vec4f(xg_u[base + f], xg_u[base + f + 1u], xg_u[base + f + 2u], xg_u[base + f + 3u]);
  } else {
    for (var t = 0u; t < 4u; t++) {
      let ft = min(f + t, fm.mp - 1u);
      let neg = ft >= nu;
      let v = xg_u[base + select(ft, ft - nu, neg)];
      u[t] = select(v, -v, neg);
    }
  }
  let ph = select(fm.ratio * (exp(u - off) + fm.eps), u, fm.phi_direct == 1u);
  return select(vec4f(0.0), ph, vec4u(f) + vec4u(0u, 1u, 2u, 3u) < vec4u(fm.mp));
}

/// φ of feature f (< m') of rows r .. r+3 of one side with offsets offs; rows past n are 0.
fn xg_phi4_rows(side: u32, r: u32, f: u32, offs: vec4f) -> vec4f {
  let nu = fm.nu;
  let neg = f >= nu;
  let col = select(f, f - nu, neg);
  let last = fm.n - 1u;
  let rows = min(vec4u(r) + vec4u(0u, 1u, 2u, 3u), vec4u(last));
  var u = vec4f(xg_u[xg_urow(side, rows.x) + col], xg_u[xg_urow(side, rows.y) + col], xg_u[xg_urow(side, rows.z) + col], xg_u[xg_urow(side, rows.w) + col]);
  u = select(u, -u, neg);
  let ph = select(fm.ratio * (exp(u - offs) + fm.eps), u, fm.phi_direct == 1u);
  return select(vec4f(0.0), ph, vec4u(r) + vec4u(0u, 1u, 2u, 3u) <= vec4u(last));
}

/// acc += w[a] · v_x for rows a = 0..3 and the CV columns x (v_x, x ≥ CV: unused).
fn xg_fma4(acc: ptr<function, XgAcc>, w: vec4f, v0: vec4f, v1: vec4f, v2: vec4f, v3: vec4f) {
  (*acc).a0_0 += w.x * v0;
  (*acc).a0_1 += w.y * v0;
  (*acc).a0_2 += w.z * v0;
  (*acc).a0_3 += w.w * v0;
  if (CV > 1u) {
    (*acc).a1_0 += w.x * v1;
    (*acc).a1_1 += w.y * v1;
    (*acc).a1_2 += w.z * v1;
    (*acc).a1_3 += w.w * v1;
  }
  if (CV > 2u) {
    (*acc).a2_0 += w.x * v2;
    (*acc).a2_1 += w.y * v2;
    (*acc).a2_2 += w.z * v2;
    (*acc).a2_3 += w.w * v2;
  }
  if (CV > 3u) {
    (*acc).a3_0 += w.x * v3;
    (*acc).a3_1 += w.y * v3;
    (*acc).a3_2 += w.z * v3;
    (*acc).a3_3 += w.w * v3;
  }
}

/// acc += w[a] · (CV vec4 columns of tile row at xg_b[o ..]) for rows a = 0..3 (o = l·4·CV + cg·CV).
fn xg_fma(acc: ptr<function, XgAcc>, w: vec4f, o: u32) {
  let v0 = xg_b[o];
  var v1 = vec4f(0.0);
  var v2 = vec4f(0.0);
  var v3 = vec4f(0.0);
  if (CV > 1u) { v1 = xg_b[o + 1u]; }
  if (CV > 2u) { v2 = xg_b[o + 2u]; }
  if (CV > 3u) { v3 = xg_b[o + 3u]; }
  xg_fma4(acc, w, v0, v1, v2, v3);
}

/// acc += w[a] · V row (vec4 columns c0 .. c0+CV−1 from storage at rowBase; 0 past column d) for rows a = 0..3.
fn xg_fma_v(acc: ptr<function, XgAcc>, w: vec4f, rowBase: u32, c0: u32, d4: u32) {
  let v0 = select(vec4f(0.0), xg_v[rowBase + min(c0, d4 - 1u)], c0 < d4);
  var v1 = vec4f(0.0);
  var v2 = vec4f(0.0);
  var v3 = vec4f(0.0);
  if (CV > 1u) { v1 = select(vec4f(0.0), xg_v[rowBase + min(c0 + 1u, d4 - 1u)], c0 + 1u < d4); }
  if (CV > 2u) { v2 = select(vec4f(0.0), xg_v[rowBase + min(c0 + 2u, d4 - 1u)], c0 + 2u < d4); }
  if (CV > 3u) { v3 = select(vec4f(0.0), xg_v[rowBase + min(c0 + 3u, d4 - 1u)], c0 + 3u < d4); }
  xg_fma4(acc, w, v0, v1, v2, v3);
}

/// The 4 columns 4c .. 4c+3 of state row base (floats at xg_state[base ..]; 0 past column d).
fn xg_state4(base: u32, c: u32, d: u32) -> vec4f {
  var v = vec4f(0.0);
  let o = base + 4u * c;
  if (4u * c < d) { v.x = xg_state[o]; }
  if (4u * c + 1u < d) { v.y = xg_state[o + 1u]; }
  if (4u * c + 2u < d) { v.z = xg_state[o + 2u]; }
  if (4u * c + 3u < d) { v.w = xg_state[o + 3u]; }
  return v;
}

/// acc += w[a] · (state row at base, vec4 columns c0 .. c0+CV−1) for rows a = 0..3.
fn xg_fma_s(acc: ptr<function, XgAcc>, w: vec4f, base: u32, c0: u32, d: u32) {
  let v0 = xg_state4(base, c0, d);
  var v1 = vec4f(0.0);
  var v2 = vec4f(0.0);
  var v3 = vec4f(0.0);
  if (CV > 1u) { v1 = xg_state4(base, c0 + 1u, d); }
  if (CV > 2u) { v2 = xg_state4(base, c0 + 2u, d); }
  if (CV > 3u) { v3 = xg_state4(base, c0 + 3u, d); }
  xg_fma4(acc, w, v0, v1, v2, v3);
}

/// V rows js .. js+KT−1, vec4 columns cb4 .. cb4+4·CV−1 (zeros from row jend on, and past column d)
/// → xg_b[jl·4·CV + c4].
fn xg_load_v(js: u32, jend: u32, cb4: u32, lid: u32) {
  let vw = 4u * CV;
  let d4 = (fm.d + 3u) / 4u;
  for (var e = lid; e < KT * vw; e += 64u) {
    let j = js + e / vw;
    let c4 = e % vw;
    var v = vec4f(0.0);
    if (j < jend && cb4 + c4 < d4) {
      v = xg_v[j * d4 + cb4 + c4];
    }
    xg_b[e] = v;
  }
}

@compute @workgroup_size(64)
fn kv_gemm(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let mp = fm.mp;
  let d = fm.d;
  let ftiles = (mp + 63u) / 64u;
  let ctiles = xg_ctiles();
  let wlin = wg_linear(id, nwg);
  let cb4 = (wlin % ctiles) * 16u;   // first vec4 column of this workgroup's column tile
  let wid = wlin / ctiles;
  let blockChunks = (xg_block_end() - fm.a0 + fm.chunk - 1u) / fm.chunk;
  if (wid / ftiles >= blockChunks) {
    return;
  }
  let p = fm.a0 / fm.chunk + wid / ftiles;
  let f0 = (wid % ftiles) * 64u;
  let g = lid / 4u;
  let cg = lid % 4u;
  let j0 = p * fm.chunk;
  let j1 = min(fm.n, j0 + fm.chunk);
  let vw = 4u * CV;

  // No workgroup memory and no barrier: each thread forms φ of its 4 features for every key itself
  // and reads V straight from storage (on SwiftShader a shader with a barrier pays ~0.2 ms per
  // workgroup and zero-fills its workgroup memory: more than the 4× repeated exp costs here).
  var acc = XgAcc();
  let f = f0 + 4u * g;
  let d4 = (fm.d + 3u) / 4u;
  let c0 = cb4 + cg * CV;
  if (f < mp) {
    for (var j = j0; j < j1; j++) {
      let ph = xg_phi4_feats(FM_KEY, j, f, xg_off(FM_KEY, j));
      acc.den += ph;
      xg_fma_v(&acc, ph, j * d4, c0, d4);
    }
  }

  let base = p * mp * (d + 1u);
  for (var a = 0u; a < 4u; a++) {
    let f = f0 + 4u * g + a;
    if (f >= mp) {
      continue;
    }
    for (var x = 0u; x < CV; x++) {
      let c = 4u * (cb4 + cg * CV + x);
      let v = xg_get(&acc, x, a);
      let o = base + f * d + c;
      if (c < d) { xg_part[o] = v.x; }
      if (c + 1u < d) { xg_part[o + 1u] = v.y; }
      if (c + 2u < d) { xg_part[o + 2u] = v.z; }
      if (c + 3u < d) { xg_part[o + 3u] = v.w; }
    }
    if (cg == 0u && cb4 == 0u) {
      xg_part[base + mp * d + f] = acc.den[a];
    }
  }
}

/// φ(Q) tile of query rows i0 .. i0+63, features f0 .. f0+FS−1 → xg_a[l·16 + row quad] (exp at load,
/// row offsets from xg_offs).
fn xg_load_query_tile(i0: u32, f0: u32, lid: u32) {
  for (var e = lid; e < FS * XG; e += 64u) {
    let f = f0 + e / XG;
    let rl = 4u * (e % XG);
    var ph = vec4f(0.0);
    if (f < fm.mp) {
      ph = xg_phi4_rows(FM_QUERY, i0 + rl, f, vec4f(xg_offs[rl], xg_offs[rl + 1u], xg_offs[rl + 2u], xg_offs[rl + 3u]));
    }
    xg_a[e] = ph;
  }
}

/// State tile of the m'×(d+1) state at xg_state[soff ..]: S rows f0 .. f0+FS−1, vec4 columns
/// cb4 .. cb4+4·CV−1 → xg_b[l·4·CV + c4] (zeros past m' and past column d), z entries → xg_z.
fn xg_load_state_tile(soff: u32, f0: u32, cb4: u32, lid: u32) {
  let mp = fm.mp;
  let d = fm.d;
  let vw = 4u * CV;
  for (var e = lid; e < FS * vw; e += 64u) {
    let f = f0 + e / vw;
    let c = 4u * (cb4 + e % vw);
    var v = vec4f(0.0);
    if (f < mp) {
      let o = soff + f * d + c;
      if (c < d) { v.x = xg_state[o]; }
      if (c + 1u < d) { v.y = xg_state[o + 1u]; }
      if (c + 2u < d) { v.z = xg_state[o + 2u]; }
      if (c + 3u < d) { v.w = xg_state[o + 3u]; }
    }
    xg_b[e] = v;
  }
  if (lid < FS) {
    var z = 0.0;
    if (f0 + lid < mp) {
      z = xg_state[soff + mp * d + f0 + lid];
    }
    xg_z[lid] = z;
  }
}

/// Query rows i0 .. i0+63 against the m'×(d+1) state at xg_state[soff ..]: feature steps of FS,
/// φ(Q) tile with exp at load, acc += φ S, den += φ·z (features in increasing order).
fn xg_query_state(acc: ptr<function, XgAcc>, i0: u32, soff: u32, cb4: u32, lid: u32) {
  let mp = fm.mp;
  let g = lid / 4u;
  let cg = lid % 4u;
  let vw = 4u * CV;
  for (var f0 = 0u; f0 < mp; f0 += FS) {
    workgroupBarrier();
    xg_load_query_tile(i0, f0, lid);
    xg_load_state_tile(soff, f0, cb4, lid);
    workgroupBarrier();
    for (var l = 0u; l < FS; l++) {
      let ph = xg_a[l * XG + g];
      (*acc).den += ph * xg_z[l];
      xg_fma(acc, ph, l * vw + cg * CV);
    }
  }
}

/// The query offsets of rows i0 .. i0+63 → xg_offs (visible after the next barrier).
fn xg_load_offsets(i0: u32, lid: u32) {
  var off = 0.0;
  if (i0 + lid < fm.n) {
    off = xg_off(FM_QUERY, i0 + lid);
  }
  xg_offs[lid] = off;
}

/// out rows i0 + 4g + a: acc / den (0 when den = 0: the all-zero-normalizer guard); the
/// invocations with cg = 0 also write den to xg_out[n·d + row].
fn xg_store(acc: ptr<function, XgAcc>, i0: u32, cb4: u32, lid: u32) {
  let d = fm.d;
  let g = lid / 4u;
  let cg = lid % 4u;
  for (var a = 0u; a < 4u; a++) {
    let row = i0 + 4u * g + a;
    if (row >= fm.n) {
      continue;
    }
    let den = (*acc).den[a];
    for (var x = 0u; x < CV; x++) {
      let c = 4u * (cb4 + cg * CV + x);
      var v = vec4f(0.0);
      if (den != 0.0) {
        v = xg_get(acc, x, a) / den;
      }
      let o = row * d + c;
      if (c < d) { xg_out[o] = v.x; }
      if (c + 1u < d) { xg_out[o + 1u] = v.y; }
      if (c + 2u < d) { xg_out[o + 2u] = v.z; }
      if (c + 3u < d) { xg_out[o + 3u] = v.w; }
    }
    if (cg == 0u && cb4 == 0u) {
      xg_out[fm.n * d + row] = den;
    }
  }
}

@compute @workgroup_size(64)
fn out_gemm(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let ctiles = xg_ctiles();
  let wlin = wg_linear(id, nwg);
  let cb4 = (wlin % ctiles) * 16u;
  let i0 = fm.a0 + (wlin / ctiles) * 64u;
  if (i0 >= xg_block_end()) {
    return;
  }
  // No workgroup memory and no barrier (as kv_gemm): each thread forms φ of its 4 rows per feature
  // and reads the state from storage, features in increasing order as xg_query_state: same bits.
  let g = lid / 4u;
  let cg = lid % 4u;
  let mp = fm.mp;
  let d = fm.d;
  let r0 = i0 + 4u * g;
  var offs = vec4f(0.0);
  for (var a = 0u; a < 4u; a++) {
    if (r0 + a < fm.n) {
      offs[a] = xg_off(FM_QUERY, r0 + a);
    }
  }
  let c0 = cb4 + cg * CV;
  var acc = XgAcc();
  for (var f = 0u; f < mp; f++) {
    let ph = xg_phi4_rows(FM_QUERY, r0, f, offs);
    acc.den += ph * xg_state[mp * d + f];
    xg_fma_s(&acc, ph, f * d, c0, d);
  }
  xg_store(&acc, i0, cb4, lid);
}

/// gk.aS_B += q · φ(K)[key 16S + 4kq + B] for S = 0..3, the four key quads at xg_c[o + 4S]
/// (o = l·XG + kq), unrolled for the register block.
fn xg_gram_step(gk: ptr<function, XgAcc>, q: vec4f, o: u32) {
  let k0 = xg_c[o];
  let k1 = xg_c[o + 4u];
  let k2 = xg_c[o + 8u];
  let k3 = xg_c[o + 12u];
  (*gk).a0_0 += q * k0.x;
  (*gk).a0_1 += q * k0.y;
  (*gk).a0_2 += q * k0.z;
  (*gk).a0_3 += q * k0.w;
  (*gk).a1_0 += q * k1.x;
  (*gk).a1_1 += q * k1.y;
  (*gk).a1_2 += q * k1.z;
  (*gk).a1_3 += q * k1.w;
  (*gk).a2_0 += q * k2.x;
  (*gk).a2_1 += q * k2.y;
  (*gk).a2_2 += q * k2.z;
  (*gk).a2_3 += q * k2.w;
  (*gk).a3_0 += q * k3.x;
  (*gk).a3_1 += q * k3.y;
  (*gk).a3_2 += q * k3.z;
  (*gk).a3_3 += q * k3.w;
}

@compute @workgroup_size(64)
fn causal_fused(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
  let ctiles = xg_ctiles();
  let wlin = wg_linear(id, nwg);
  let cb4 = (wlin % ctiles) * 16u;
  let i0 = fm.a0 + (wlin / ctiles) * 64u;
  if (i0 >= xg_block_end()) {
    return;
  }
  let mp = fm.mp;
  let d = fm.d;
  let g = lid / 4u;
  let kq = lid % 4u;
  let vw = 4u * CV;
  let p = i0 / fm.chunk;
  let cs = p * fm.chunk;
  let soff = p * mp * (d + 1u);
  let ilast = min(fm.n, i0 + 64u) - 1u;
  let rows = vec4u(i0 + 4u * g) + vec4u(0u, 1u, 2u, 3u);
  xg_load_offsets(i0, lid);

  var acc = XgAcc();
  // Key blocks of 64 keys of the chunk, up to the tile's last row. The first block shares its
  // feature loop (and so its φ(Q) tiles) with the inter-chunk part: acc += φ(q)ᵀ S_{<p}.
  for (var kb = cs; kb <= ilast; kb += 64u) {
    let inter = kb == cs;
    // gk.aS_B: rows 4g..4g+3 × key kb + 16S + 4kq + B (den unused). Zeroed by an explicit
    // constructor: a bare `var gk: XgAcc;` in this loop body kept the previous block's sums on
    // SwiftShader (the zero initializer ran once, not per iteration), and chunks of more than
    // 64 keys came out wrong.
    var gk = XgAcc();
    {
      var off = 0.0;
      if (kb + lid <= ilast) {
        off = xg_off(FM_KEY, kb + lid);
      }
      xg_koffs[lid] = off;
    }
    for (var f0 = 0u; f0 < mp; f0 += FS) {
      workgroupBarrier();
      xg_load_query_tile(i0, f0, lid);
      for (var e = lid; e < FS * XG; e += 64u) {      // φ(K) tile: feature f0 + e / 16, keys kb + 4·(e % 16) ..
        let f = f0 + e / XG;
        let kl = 4u * (e % XG);
        var ph = vec4f(0.0);
        if (f < fm.mp && kb + kl <= ilast) {
          let offs = vec4f(xg_koffs[kl], xg_koffs[kl + 1u], xg_koffs[kl + 2u], xg_koffs[kl + 3u]);
          ph = select(vec4f(0.0), xg_phi4_rows(FM_KEY, kb + kl, f, offs), vec4u(kb + kl) + vec4u(0u, 1u, 2u, 3u) <= vec4u(ilast));
        }
        xg_c[e] = ph;
      }
      if (inter) {
        xg_load_state_tile(soff, f0, cb4, lid);
      }
      workgroupBarrier();
      for (var l = 0u; l < FS; l++) {
        let q = xg_a[l * XG + g];
        if (inter) {
          acc.den += q * xg_z[l];
          xg_fma(&acc, q, l * vw + cg_of(lid) * CV);
        }
        xg_gram_step(&gk, q, l * XG + kq);
      }
    }
    // G·V per sub-tile of 16 keys: masked G (j ≤ i) through xg_a, V through xg_b.
    for (var s4 = 0u; s4 < 4u; s4++) {
      let js = kb + KT * s4;
      if (js > ilast) {
        break;
      }
      workgroupBarrier();
      for (var b = 0u; b < 4u; b++) {
        let j = js + 4u * kq + b;
        xg_a[(4u * kq + b) * XG + g] = select(vec4f(0.0), xg_get(&gk, s4, b), vec4u(j) <= rows);
      }
      xg_load_v(js, fm.n, cb4, lid);
      workgroupBarrier();
      for (var jl = 0u; jl < KT; jl++) {
        let gv = xg_a[jl * XG + g];
        acc.den += gv;
        xg_fma(&acc, gv, jl * vw + kq * CV);
      }
    }
  }
  xg_store(&acc, i0, cb4, lid);
}

// phi_rows: φ of one side (fm.chunk: FM_QUERY or FM_KEY) as n rows of ⌈m'/4⌉ vec4 (entries past m'
// are 0), the layout the dense statistics read, from an unblocked U (a0 = 0, a1 = n). The same
// xg_phi4_feats the GEMMs apply while loading tiles. One invocation per vec4; dispatch
// ⌈n·⌈m'/4⌉/64⌉. Binding 12: the rows (write).
@group(0) @binding(12) var<storage, read_write> xg_feat: array<vec4f>;

@compute @workgroup_size(64)
fn phi_rows(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let m4 = (fm.mp + 3u) / 4u;
  let e = wg_linear(id, nwg) * 64u + lid;
  if (e >= fm.n * m4) {
    return;
  }
  let row = e / m4;
  let side = fm.chunk;
  xg_feat[e] = xg_phi4_feats(side, row, (e - row * m4) * 4u, xg_off(side, row));
}
