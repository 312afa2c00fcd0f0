// favor-features.wgsl — stabilizer statistics and materialized feature matrices φ(Q), φ(K).
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, fm_* helpers; read that
// header for the feature formulas). CPU twin: src/core/feature-maps.ts queryFeatures/keyFeatures.
// Every entry point runs 256 invocations per workgroup. Workgroup ids are linearised as
// wid = id.x + id.y · num_workgroups.x (the dispatcher splits large 1-D grids over x and y).
//
// Entry points (FmParams fields beyond n, d, nu, mp, scale, ratio in brackets):
//   row_stats        [a0 = side] per row of X (Q or K): (max_r u_r, 0), or (max_r |u_r|, 0) for
//                    hyperbolic, (max_r A‖ω_r‖² + √(1−4A)·u_r, 0) for oprf, over all nu u columns
//                    (u computed by fm_project, same bits as φ).
//                    Writes st_out[row]. Dispatch: ceil(n / 16) workgroups (16 rows each).
//   ds_row_stats     double-softmax query rows: (max_c x_c, Σ_c exp(x_c − max)), c in order.
//                    Writes st_out[row]. Dispatch: ceil(n / 256).
//   global_max       [a1 = count] st_out[0] = (max_i st_in[i].x, 1) — exact (max is order-free).
//                    The key max of the 'max' maps (count n; causal under ε: 1, key 0's max) and the
//                    causal double-softmax key shift (st_in = the d column stats; aux 1).
//                    Dispatch: 1 workgroup.
//   ds_col_partials  double-softmax keys, per chunk p of `chunk` rows and column c: (m_pc, s_pc) =
//                    (max_{j∈p} y_jc, Σ_{j∈p} exp(y_jc − m_pc)), j in order → st_out[p·d + c].
//                    Dispatch: ceil(nchunks·d / 256).
//   ds_col_combine   per column c: M = max_p m_pc, S = Σ_{p = 0, 1, …} s_pc·exp(m_pc − M) in fixed
//                    order → st_out[c] = (M, S). Dispatch: ceil(d / 256).
//   hh_row_stats     hedgehog, [a0 = side] one invocation per row: u_r = Σ_c x_c·w_rc (c in order),
//                    then for b = 0 (+u), 1 (−u): (M_b = max_r ±u_r, S_b = Σ_r exp(±u_r − M_b), r in
//                    order) → st_out[2·row + b]. Per-thread loops (u recomputed per pass, no
//                    storage for m u's). Dispatch: ceil(n / 256).
//   features         [a0 = side, a1 = u tiles per workgroup] φ of rows row0..+16 for a1 consecutive
//                    tiles of 64/nb u columns → feat_out (n × m', row-major).
//                    Dispatch: ceil(n / 16) · ceil(ceil(nu / (64 / nb)) / a1) workgroups.
//
// Extra bindings: 6 st_out (rw vec2), 7 st_in (read vec2), 8 feat_out (rw f32).

@group(0) @binding(6) var<storage, read_write> st_out: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read> st_in: array<vec2<f32>>;
@group(0) @binding(8) var<storage, read_write> feat_out: array<f32>;

const ST_ROWS: u32 = 16u;
const ST_COLS: u32 = 64u;

@compute @workgroup_size(256)
fn row_stats(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let wid = wg_linear(id, nwg);
  let row0 = wid * ST_ROWS;
  if (row0 >= fm.n) {
    return;
  }
  let side = fm.a0;
  var best = FM_LOWEST;
  for (var u0 = 0u; u0 < fm.nu; u0 += ST_COLS) {
    let u = fm_project(fm_rows(side, row0), u0, ST_ROWS, ST_COLS, lid);
    for (var t = 0u; t < 4u; t++) {
      let sl = fm_slot(lid, t, ST_ROWS, ST_COLS);   // all 256 invocations active for 16 × 64
      var v = u[t];
      if (fm.kind == FM_HYPERBOLIC) {
        v = abs(v);
      }
      if (fm.kind == FM_OPRF) {
        v = fm_oprf_exponent(v, u0 + sl.y);
      }
      if (u0 + sl.y >= fm.nu) {
        v = FM_LOWEST;
      }
      fm_phi[sl.x * ST_COLS + sl.y] = v;
    }
    workgroupBarrier();
    if (lid < ST_ROWS) {
      for (var c = 0u; c < ST_COLS; c++) {
        best = max(best, fm_phi[lid * ST_COLS + c]);
      }
    }
    // The next fm_project starts with a barrier before anything is overwritten.
  }
  let row = row0 + lid;
  if (lid < ST_ROWS && row < fm.n) {
    st_out[row] = vec2<f32>(best, 0.0);
  }
}

@compute @workgroup_size(256)
fn ds_row_stats(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
  let row = wg_linear(id, nwg) * FM_WG + lid;
  if (row >= fm.n) {
    return;
  }
  let d = fm.d;
  var mx = FM_LOWEST;
  for (var c = 0u; c < d; c++) {
    mx = max(mx, fm_input(FM_QUERY, row * d + c));
  }
  var s = 0.0;
  for (var c = 0u; c < d; c++) {
    s = s + exp(fm_input(FM_QUERY, row * d + c) - mx);
  }
  st_out[row] = vec2<f32>(mx, s);
}

var<workgroup> gm_red: array<f32, 256>;

@compute @workgroup_size(256)
fn global_max(@builtin(local_invocation_index) lid: u32) {
  var best = FM_LOWEST;
  for (var i = lid; i < fm.a1; i += FM_WG) {
    best = max(best, st_in[i].x);
  }
  gm_red[lid] = best;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (lid < s) {
      gm_red[lid] = max(gm_red[lid], gm_red[lid + s]);
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    st_out[0] = vec2<f32>(gm_red[0], 1.0);
  }
}

@compute @workgroup_size(256)
fn ds_col_partials(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
  let idx = wg_linear(id, nwg) * FM_WG + lid;
  let d = fm.d;
  if (idx >= fm.nchunks * d) {
    return;
  }
  let p = idx / d;
  let c = idx % d;
  let j0 = p * fm.chunk;
  let j1 = min(fm.n, j0 + fm.chunk);
  var mx = FM_LOWEST;
  for (var j = j0; j < j1; j++) {
    mx = max(mx, fm_input(FM_KEY, j * d + c));
  }
  var s = 0.0;
  for (var j = j0; j < j1; j++) {
    s = s + exp(fm_input(FM_KEY, j * d + c) - mx);
  }
  st_out[idx] = vec2<f32>(mx, s);
}

@compute @workgroup_size(256)
fn ds_col_combine(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
  let c = wg_linear(id, nwg) * FM_WG + lid;
  let d = fm.d;
  if (c >= d) {
    return;
  }
  var mx = FM_LOWEST;
  for (var p = 0u; p < fm.nchunks; p++) {
    mx = max(mx, st_in[p * d + c].x);
  }
  var s = 0.0;
  for (var p = 0u; p < fm.nchunks; p++) {
    let part = st_in[p * d + c];
    s = s + part.y * exp(part.x - mx);
  }
  st_out[c] = vec2<f32>(mx, s);
}

@compute @workgroup_size(256)
fn features(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let C = ST_COLS / fm.nb;
  let ctiles = (fm.nu + C - 1u) / C;
  let per = fm.a1;                                   // u tiles per workgroup
  let groups = (ctiles + per - 1u) / per;
  let wid = wg_linear(id, nwg);
  let row0 = (wid / groups) * ST_ROWS;
  if (row0 >= fm.n) {
    return;
  }
  let t0 = (wid % groups) * per;
  let t1 = min(ctiles, t0 + per);
  let w = fm.nb * C;
  for (var t = t0; t < t1; t++) {
    let u0 = t * C;
    fm_phi_tile(fm.a0, row0, u0, ST_ROWS, C, lid, 0u, w);
    workgroupBarrier();
    for (var e = lid; e < ST_ROWS * w; e += FM_WG) {
      let r = e / w;
      let l = e % w;
      let b = l / C;
      let col = u0 + l % C;
      let row = row0 + r;
      if (row < fm.n && col < fm.nu) {
        feat_out[row * fm.mp + b * fm.nu + col] = fm_phi[e];
      }
    }
  }
}

/// u_r of row `row` of side `side` for hedgehog stats: coordinates added in order from 0.
fn hh_u(side: u32, row: u32, r: u32) -> f32 {
  let d = fm.d;
  var u = 0.0;
  for (var c = 0u; c < d; c++) {
    u = u + fm_input(side, row * d + c) * fm_w[r * d + c];
  }
  return u;
}

@compute @workgroup_size(256)
fn hh_row_stats(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
  let row = wg_linear(id, nwg) * FM_WG + lid;
  if (row >= fm.n) {
    return;
  }
  let side = fm.a0;
  var mp = FM_LOWEST;
  var mn = FM_LOWEST;
  for (var r = 0u; r < fm.nu; r++) {
    let u = hh_u(side, row, r);
    mp = max(mp, u);
    mn = max(mn, -u);
  }
  var sp = 0.0;
  var sn = 0.0;
  for (var r = 0u; r < fm.nu; r++) {
    let u = hh_u(side, row, r);
    sp = sp + exp(u - mp);
    sn = sn + exp(-u - mn);
  }
  st_out[2u * row] = vec2<f32>(mp, sp);
  st_out[2u * row + 1u] = vec2<f32>(mn, sn);
}
