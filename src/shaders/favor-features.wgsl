// favor-features.wgsl — stabilizer statistics and materialized feature matrices φ(Q), φ(K).
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, fm_* helpers; read that
// header for the feature formulas). CPU twin: src/core/feature-maps.ts queryFeatures/keyFeatures.
// row_stats and features run 64 invocations per workgroup, the others 256. Workgroup ids are
// linearised as wid = id.x + id.y · num_workgroups.x (the dispatcher splits large 1-D grids over x
// and y).
//
// Entry points (FmParams fields beyond n, d, nu, mp, scale, ratio in brackets):
//   row_stats        [a0 = side] per row of X (Q or K): (max_r u_r, 0), or (max_r |u_r|, 0) for
//                    hyperbolic, (max_r A‖ω_r‖² + √(1−4A)·u_r, 0) for oprf, over all nu u columns
//                    (u = Σ_c x_c·w_rc, c in order: fm_project's bits). One invocation per row, 4 u
//                    columns at a time in registers (1 x load + 4 W loads per 4 FMAs), no
//                    workgroup memory, no barrier. Writes st_out[row]. Dispatch: ceil(n / 64).
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
//   features         [a0 = side] φ → feat_out (n × m', row-major). One invocation per (row, group of
//                    4 consecutive u columns r0 .. r0+3): the 4 u and ‖x‖² in registers (coordinates
//                    in order: fm_project's bits), then for both blocks b·nu + r fm_phi_at, or for
//                    trig, relu and elu1 their formula functions in a loop of their own case (the
//                    same formula code as the fused kernels: on-the-fly features equal these bit for
//                    bit). No workgroup memory, no barrier.
//                    Dispatch: ceil(n · ceil(nu / 4) / 64) workgroups (index gi → row gi / ⌈nu/4⌉).
//
// Extra bindings: 6 st_out (rw vec2), 7 st_in (read vec2), 8 feat_out (rw f32).

@group(0) @binding(6) var<storage, read_write> st_out: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read> st_in: array<vec2<f32>>;
@group(0) @binding(8) var<storage, read_write> feat_out: array<f32>;

const FF_WG: u32 = 64u;   // invocations per workgroup of row_stats and features

/// row_stats' value of u column col: u, |u| (hyperbolic) or OPRF's exponent.
fn ff_stat(u: f32, col: u32) -> f32 {
  if (fm.kind == FM_HYPERBOLIC) {
    return abs(u);
  }
  if (fm.kind == FM_OPRF) {
    return fm_oprf_exponent(u, col);
  }
  return u;
}

@compute @workgroup_size(64)
fn row_stats(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let row = wg_linear(id, nwg) * FF_WG + lid;
  if (row >= fm.n) {
    return;
  }
  let side = fm.a0;
  let d = fm.d;
  let nu = fm.nu;
  let o = row * d;
  var best = FM_LOWEST;
  for (var r0 = 0u; r0 < nu; r0 += 4u) {
    // u of columns r0 .. r0+3 (a column past nu reads column r0 and is not taken)
    let o0 = r0 * d;
    let o1 = select(r0, r0 + 1u, r0 + 1u < nu) * d;
    let o2 = select(r0, r0 + 2u, r0 + 2u < nu) * d;
    let o3 = select(r0, r0 + 3u, r0 + 3u < nu) * d;
    var u0 = 0.0;
    var u1 = 0.0;
    var u2 = 0.0;
    var u3 = 0.0;
    for (var c = 0u; c < d; c++) {
      let x = fm_input(side, o + c);
      u0 = u0 + x * fm_w[o0 + c];
      u1 = u1 + x * fm_w[o1 + c];
      u2 = u2 + x * fm_w[o2 + c];
      u3 = u3 + x * fm_w[o3 + c];
    }
    best = max(best, ff_stat(u0, r0));
    if (r0 + 1u < nu) { best = max(best, ff_stat(u1, r0 + 1u)); }
    if (r0 + 2u < nu) { best = max(best, ff_stat(u2, r0 + 2u)); }
    if (r0 + 3u < nu) { best = max(best, ff_stat(u3, r0 + 3u)); }
  }
  st_out[row] = vec2<f32>(best, 0.0);
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

/// φ of u column col (< nu) of matrix row sr, both blocks, into feat_out.
fn ff_store(u: f32, hn: f32, sr: vec2<u32>, col: u32) {
  let o = sr.y * fm.mp + col;
  for (var b = 0u; b < fm.nb; b++) {
    feat_out[o + b * fm.nu] = fm_phi_at(u, b, hn, sr, col);
  }
}

@compute @workgroup_size(64)
fn features(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let nu = fm.nu;
  let groups = (nu + 3u) / 4u;
  let gi = wg_linear(id, nwg) * FF_WG + lid;
  let row = gi / groups;
  if (row >= fm.n) {
    return;
  }
  let r0 = (gi % groups) * 4u;
  let sr = vec2<u32>(fm.a0, row);
  let d = fm.d;
  let o = row * d;
  var u0 = 0.0;
  var u1 = 0.0;
  var u2 = 0.0;
  var u3 = 0.0;
  var nrm = 0.0;
  if (fm_uses_w()) {
    // u of columns r0 .. r0+3 and ‖x‖², coordinates in order (fm_project's bits); a column past
    // nu reads column r0 and is not stored
    let o0 = r0 * d;
    let o1 = select(r0, r0 + 1u, r0 + 1u < nu) * d;
    let o2 = select(r0, r0 + 2u, r0 + 2u < nu) * d;
    let o3 = select(r0, r0 + 3u, r0 + 3u < nu) * d;
    for (var c = 0u; c < d; c++) {
      let x = fm_input(sr.x, o + c);
      u0 = u0 + x * fm_w[o0 + c];
      u1 = u1 + x * fm_w[o1 + c];
      u2 = u2 + x * fm_w[o2 + c];
      u3 = u3 + x * fm_w[o3 + c];
      nrm = nrm + x * x;
    }
  } else {
    // no projection: u_c = x_c (0 past d: taylor2's columns read the inputs in fm_feature_at)
    if (r0 < d) { u0 = fm_input(sr.x, o + r0); }
    if (r0 + 1u < d) { u1 = fm_input(sr.x, o + r0 + 1u); }
    if (r0 + 2u < d) { u2 = fm_input(sr.x, o + r0 + 2u); }
    if (r0 + 3u < d) { u3 = fm_input(sr.x, o + r0 + 3u); }
  }
  let hn = 0.5 * nrm;
  // One switch per invocation with a loop over the 4 columns inside each case, not a switch per
  // feature (fm_phi_at): SwiftShader runs every case of a switch under a lane mask — a case's loop
  // with no lane active ends at once, straight code runs whole — so a switch per feature paid for
  // every map's formula (the defaults' 'favor.features', medians: trig 19.7 → 5.8 ms with one sin_cos
  // for both blocks, elu1 2.2 → 1.1).
  // The cases call fm_feature's own formula functions, so the bits stay those of the fused kernels.
  let h = select(0.0, hn, fm_uses_norm()); // fm_phi_at's hn
  let fo = row * fm.mp;
  switch (fm.kind) {
    case FM_TRIG: {
      for (var t = 0u; t < 4u && r0 + t < nu; t++) {
        let v = fm_trig(ff_pick(u0, u1, u2, u3, t), h); // one sin_cos for both blocks
        feat_out[fo + r0 + t] = v.x;
        feat_out[fo + nu + r0 + t] = v.y;
      }
    }
    case FM_RELU: {
      for (var t = 0u; t < 4u && r0 + t < nu; t++) {
        feat_out[fo + r0 + t] = fm_relu(ff_pick(u0, u1, u2, u3, t));
      }
    }
    case FM_ELU1: {
      for (var t = 0u; t < 4u && r0 + t < nu; t++) {
        feat_out[fo + r0 + t] = fm_elu1(ff_pick(u0, u1, u2, u3, t));
      }
    }
    default: {
      for (var t = 0u; t < 4u && r0 + t < nu; t++) {
        ff_store(ff_pick(u0, u1, u2, u3, t), hn, sr, r0 + t);
      }
    }
  }
}

/// u_t of the four (no private array: one indexed by a loop variable is spilled to memory).
fn ff_pick(u0: f32, u1: f32, u2: f32, u3: f32, t: u32) -> f32 {
  return select(select(u0, u1, t == 1u), select(u2, u3, t == 3u), t >= 2u);
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
