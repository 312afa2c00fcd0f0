// favor-projection.wgsl — the projections of the exp-of-projection feature maps (positive,
// hyperbolic, exp), computed once per side as one register-tiled GEMM, with the stabilizer
// maxima in its epilogue:
//   U_X = X Wᵀ (x = q·d^{-1/4} or y = k·d^{-1/4}),  u_ir = ω_r·x_i       (n × nu per side, nu = m)
//   hn_i = ‖x_i‖²/2
//   query stats  qstats[i] = (max_r u_ir, 0)            (hyperbolic: max_r |u_ir|)
//   key stats    kstats[0] = (max_{j,r} u_jr, 0)        (hyperbolic: max |u_jr|; causal under ε: j = 0)
// The Performer GEMMs (performer-exp-gemm.wgsl) read U and apply exp as they load tiles, so the
// projection is computed once and φ is never materialized. The stats have the format of
// favor-features.wgsl's (fm_qstats, fm_kstats), so the dense statistics can reuse them.
// Prepended at dispatch time by feature-map-common.wgsl (FmParams uniform at binding 0).
// CPU twin: src/core/feature-maps.ts (the u and maxima inside queryFeatures / keyFeatures).
//
// Thread mapping (project): 64 invocations; a workgroup owns 32 rows of one side. Row group
// g = lid / 8 holds rows 4g..4g+3; its thread t = lid % 8 computes, per column tile of 64 u
// columns c0.., the 4×8 micro-tile rows 4g..4g+3 × columns c0 + t + 8x (x = 0..7) with vec4
// dot products over ⌈d/4⌉ (4 row + 8 W vec4 loads per 32 dot products) (rows and W read as padded vec4 rows; rows past n read row n−1, whose
// duplicates change no maximum, and are never written). No barrier and no workgroup memory: on a
// SIMD rasterizer (SwiftShader) a shader with a barrier runs its workgroups as coroutines and zero-
// fills the workgroup memory it uses, ~0.1–0.3 ms per workgroup even where no barrier is reached
// (npm run bench:primitives). Each thread writes its partial maxima instead:
//   query rows: qpart[8·i + t] = max over its columns of u_ir (row_max combines the 8 → qstats[i]);
//   key rows:   kpart[8·(i0/4 + g) + t] = max over its 4 rows and columns; tile 0's group 0 also
//               writes row 0's own partials at kpart[8·⌈n/4⌉ + t] (causal under ε reads only those).
// hn is written by thread t = 0 of each row group (it needs no other thread's data).
// Row blocks (FmParams a0 = first row u0, a1 = block rows B; chunk = first side, nchunks = side
// count): the workgroups cover rows u0 .. min(n, u0 + B) − 1 of the sides chunk .. chunk + nchunks − 1
// and U holds that block only, U_Q block then U_K block (row i of side s at (s·B + i − u0)·nu);
// B = 0 projects every row of the given sides for hn and the maxima only (no U write): the key
// stabilizer pass of the blocked path when 2·n·nu floats exceed a binding (each query block's own
// projection writes its query partials and hn, and its row_max the block's qstats). hn and the
// partials are indexed by the global row. Unblocked: u0 = 0, B = n, both sides.
// Dispatch: sides·⌈rows/32⌉ workgroups (query row tiles, then key row tiles).
// row_max: one thread per query row of the same rows (a0, a1 as project): qstats[i] = (max_t qpart[8i + t], 0).
// Dispatch ⌈rows/64⌉.
// key_max: one workgroup of 64; kstats[0] = max over the key partials. Dispatch: 1.
// Causal under ε (fm.causal_keys = 1, favor-dispatch.ts causalKeys): key_max reads row 0's partials
// only, so kstats[0] is key 0's max (the CPU twin's causalKeyShift), the one key every causal row sees.
//
// Bindings: 0 FmParams, 13 Q, 14 K, 15 W (vec4 rows), 16 U (rw, U_Q then U_K, 2·n·nu f32),
// 17 hn (rw, hn_Q then hn_K, 2n f32), 18 query partials (rw, 8n f32), 19 key partials (rw, 8·⌈n/4⌉ + 8 f32);
// row_max: 22 query partials (read), 23 qstats (rw, n vec2); key_max: 20 kstats (rw), 21 key partials (read).

@group(0) @binding(13) var<storage, read> pj_q: array<vec4f>;
@group(0) @binding(14) var<storage, read> pj_k: array<vec4f>;
@group(0) @binding(15) var<storage, read> pj_w: array<vec4f>;
@group(0) @binding(16) var<storage, read_write> pj_u: array<f32>;
@group(0) @binding(17) var<storage, read_write> pj_hn: array<f32>;
@group(0) @binding(18) var<storage, read_write> pj_qpart: array<f32>;
@group(0) @binding(19) var<storage, read_write> pj_kpart: array<f32>;
@group(0) @binding(20) var<storage, read_write> pj_kstats: array<vec2f>;
@group(0) @binding(21) var<storage, read> pj_kpart_in: array<f32>;
@group(0) @binding(22) var<storage, read> pj_qpart_in: array<f32>;
@group(0) @binding(23) var<storage, read_write> pj_qstats: array<vec2f>;

const PJ_R: u32 = 32u;   // rows per workgroup
const PJ_C: u32 = 64u;   // u columns per column tile
const PJ_T: u32 = 8u;    // threads per row group

var<workgroup> pj_red: array<f32, 64>;

fn pj_row(side: u32, idx: u32) -> vec4f {
  if (side == FM_QUERY) {
    return pj_q[idx];
  }
  return pj_k[idx];
}

/// Epilogue of one accumulator: scale, write rows row0 .. row0+3 (< n) of column col (< nu) of U
/// when this pass writes U, and return the running maxima (|u| for hyperbolic) including it.
fn pj_emit(best: vec4f, acc: vec4f, side: u32, row0: u32, col: u32, hyper: bool) -> vec4f {
  if (col >= fm.nu) {
    return best;
  }
  let v = acc * fm.scale;   // the scale d^{-1/4} once per entry, not per loaded row element
  let ub = fm.a1;
  if (ub != 0u) {
    let nu = fm.nu;
    let base = (side * ub + row0 - fm.a0) * nu + col;
    let n = fm.n;
    if (row0 < n) { pj_u[base] = v.x; }
    if (row0 + 1u < n) { pj_u[base + nu] = v.y; }
    if (row0 + 2u < n) { pj_u[base + 2u * nu] = v.z; }
    if (row0 + 3u < n) { pj_u[base + 3u * nu] = v.w; }
  }
  return max(best, select(v, abs(v), hyper));
}

@compute @workgroup_size(64)
fn project(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let n = fm.n;
  let nu = fm.nu;
  let u0 = fm.a0;
  let ub = fm.a1;
  let rows = select(min(ub, n - u0), n - u0, ub == 0u);
  let tiles = (rows + PJ_R - 1u) / PJ_R;
  let wid = wg_linear(id, nwg);
  if (wid >= fm.nchunks * tiles) {
    return;
  }
  let side = fm.chunk + wid / tiles;
  let i0 = u0 + (wid % tiles) * PJ_R;
  let g = lid / PJ_T;
  let t = lid % PJ_T;
  let d4 = (fm.d + 3u) / 4u;
  let last = n - 1u;
  let r = min(vec4u(i0 + 4u * g) + vec4u(0u, 1u, 2u, 3u), vec4u(last));
  let hyper = fm.kind == FM_HYPERBOLIC;
  let s = fm.scale;

  var best = vec4f(FM_LOWEST);
  for (var c0 = 0u; c0 < nu; c0 += PJ_C) {
    // acc_x: column c0 + t + 8x, rows 4g..4g+3. Eight named registers, not an array: an array
    // indexed by the loop variable is spilled to memory on a SIMD rasterizer (SwiftShader), and its
    // gathers and scatters cost more than the dot products.
    var acc0 = vec4f(0.0);
    var acc1 = vec4f(0.0);
    var acc2 = vec4f(0.0);
    var acc3 = vec4f(0.0);
    var acc4 = vec4f(0.0);
    var acc5 = vec4f(0.0);
    var acc6 = vec4f(0.0);
    var acc7 = vec4f(0.0);
    let cl = nu - 1u;
    let w0 = min(c0 + t, cl) * d4;
    let w1 = min(c0 + t + 8u, cl) * d4;
    let w2 = min(c0 + t + 16u, cl) * d4;
    let w3 = min(c0 + t + 24u, cl) * d4;
    let w4 = min(c0 + t + 32u, cl) * d4;
    let w5 = min(c0 + t + 40u, cl) * d4;
    let w6 = min(c0 + t + 48u, cl) * d4;
    let w7 = min(c0 + t + 56u, cl) * d4;
    for (var c4 = 0u; c4 < d4; c4++) {
      let x0 = pj_row(side, r.x * d4 + c4);
      let x1 = pj_row(side, r.y * d4 + c4);
      let x2 = pj_row(side, r.z * d4 + c4);
      let x3 = pj_row(side, r.w * d4 + c4);
      acc0 += dot4(x0, x1, x2, x3, pj_w[w0 + c4]);
      acc1 += dot4(x0, x1, x2, x3, pj_w[w1 + c4]);
      acc2 += dot4(x0, x1, x2, x3, pj_w[w2 + c4]);
      acc3 += dot4(x0, x1, x2, x3, pj_w[w3 + c4]);
      acc4 += dot4(x0, x1, x2, x3, pj_w[w4 + c4]);
      acc5 += dot4(x0, x1, x2, x3, pj_w[w5 + c4]);
      acc6 += dot4(x0, x1, x2, x3, pj_w[w6 + c4]);
      acc7 += dot4(x0, x1, x2, x3, pj_w[w7 + c4]);
    }
    best = pj_emit(best, acc0, side, i0 + 4u * g, c0 + t, hyper);
    best = pj_emit(best, acc1, side, i0 + 4u * g, c0 + t + 8u, hyper);
    best = pj_emit(best, acc2, side, i0 + 4u * g, c0 + t + 16u, hyper);
    best = pj_emit(best, acc3, side, i0 + 4u * g, c0 + t + 24u, hyper);
    best = pj_emit(best, acc4, side, i0 + 4u * g, c0 + t + 32u, hyper);
    best = pj_emit(best, acc5, side, i0 + 4u * g, c0 + t + 40u, hyper);
    best = pj_emit(best, acc6, side, i0 + 4u * g, c0 + t + 48u, hyper);
    best = pj_emit(best, acc7, side, i0 + 4u * g, c0 + t + 56u, hyper);
  }

  let rows4 = vec4u(i0 + 4u * g) + vec4u(0u, 1u, 2u, 3u);
  if (side == FM_QUERY) {
    for (var a = 0u; a < 4u; a++) {
      if (rows4[a] < n) {
        pj_qpart[rows4[a] * PJ_T + t] = best[a];
      }
    }
  } else {
    // rows past n repeat row n − 1 (no maximum changes); a group wholly past n writes nothing
    if (rows4.x < n) {
      pj_kpart[((i0 / 4u) + g) * PJ_T + t] = max(max(best.x, best.y), max(best.z, best.w));
    }
    if (i0 == 0u && g == 0u) {
      pj_kpart[((n + 3u) / 4u) * PJ_T + t] = best.x;  // row 0's own partial (causal under ε)
    }
  }
  if (t == 0u) {
    var h = vec4f(0.0);
    for (var c4 = 0u; c4 < d4; c4++) {
      let x0 = pj_row(side, r.x * d4 + c4) * s;
      let x1 = pj_row(side, r.y * d4 + c4) * s;
      let x2 = pj_row(side, r.z * d4 + c4) * s;
      let x3 = pj_row(side, r.w * d4 + c4) * s;
      h += vec4f(dot(x0, x0), dot(x1, x1), dot(x2, x2), dot(x3, x3));
    }
    for (var a = 0u; a < 4u; a++) {
      if (rows4[a] < n) {
        pj_hn[side * n + rows4[a]] = 0.5 * h[a];
      }
    }
  }
}

@compute @workgroup_size(64)
fn row_max(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = fm.n;
  let u0 = fm.a0;
  let ub = fm.a1;
  let rows = select(min(ub, n - u0), n - u0, ub == 0u);
  let k = gid.x + gid.y * nwg.x * 64u;
  if (k >= rows) {
    return;
  }
  let i = u0 + k;
  var m = pj_qpart_in[i * PJ_T];
  for (var t = 1u; t < PJ_T; t++) {
    m = max(m, pj_qpart_in[i * PJ_T + t]);
  }
  pj_qstats[i] = vec2f(m, 0.0);
}

@compute @workgroup_size(64)
fn key_max(@builtin(local_invocation_index) lid: u32) {
  let groups = (fm.n + 3u) / 4u;
  // causal under ε: row 0's own partials only (key 0's max)
  let first = select(0u, groups * PJ_T, fm.causal_keys == 1u);
  let count = select(groups * PJ_T, PJ_T, fm.causal_keys == 1u);
  var best = FM_LOWEST;
  for (var i = lid; i < count; i += 64u) {
    best = max(best, pj_kpart_in[first + i]);
  }
  pj_red[lid] = best;
  workgroupBarrier();
  if (lid == 0u) {
    var m = pj_red[0];
    for (var w = 1u; w < 64u; w++) {
      m = max(m, pj_red[w]);
    }
    pj_kstats[0] = vec2f(m, 0.0);
  }
}
