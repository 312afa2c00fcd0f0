// φ of the exp-of-projection maps (positive, hyperbolic, exp) under the 'shift' stabilizer (ε = 0) for the
// row-list batch (src/gpu/attention-row-list-batch.ts), straight from the projection: for every GPU slot g
// and each of its R query rows and n keys, with x = row·d^{-1/4} (the exact slot's unscaled Q rows and K),
// u_r = ω_r·x (ω_r the slot's W rows, r < m):
//   mx = max_r u_r (hyperbolic: max_r |u_r|),  φ̃_r = ratio·exp(u_r − mx)  (hyperbolic: [exp(u − mx) | exp(−u − mx)]·ratio)
//   kscale[g][j] = mx − ‖x‖²/2 (maps with the norm term) or mx (exp) for the keys:  φ(k_j) = exp(kscale_j)·φ̃(k_j)
// Each row carries its own shift instead of the twins' one global key shift (core/feature-maps.ts
// expFeatures): a per-query factor cancels in Â's row normalization and the per-key factors come back
// in attention-row-list-batch.wgsl rowReduce (Â_j ∝ g̃_j·exp(kscale_j − max kscale)), so Â equals the
// twins' while no feature under- or overflows at large norms. Under ε ('ref') the shift does not cancel:
// such variants take φ from the twins or the feature kernels.
//
// Bindings: 0 params, 1 feats (read_write: the exact slot's rows and the W rows are read, the slots'
// φ rows written, zero-padded to m4 vec4s), 2 table (2 vec4u per GPU slot: (qOff, kOff, m4, m),
// (wOff, ratio bits, –, flags): bit 0 query hyperbolic, 1 query norm, 2 key hyperbolic, 3 key norm,
// bits 8… the batch slot of kscale), 3 proj (scratch u, same layout as feats), 4 kscale (p.ns vec4s per
// batch slot, keys padded to 8).
//
// rowFeaturesDirect: φ of the other maps straight from the rows (a second table, 2 vec4u per direct slot:
// (qOff, kOff, m4, m), (wOff, ratio bits, A bits, code | causal << 8 | batch slot << 16), codes DM_* generated
// by the dispatcher), every map under its twin's formula (core/feature-maps.ts, feature-maps-beyond.ts) up to
// a per-row factor that cancels in Â (queries) or comes back through kscale (keys):
//   trig            ratio·[sin u_r | cos u_r]; the twin's exp(‖x‖²/2) is the key's log-scale (queries: dropped)
//   relu            max(ratio·u_r, 0) + RELU_EPS
//   elu1            elu(x_c) + 1
//   cosformer       relu(x_c)·[cos θ | sin θ], θ = π·position/(2n) (queries: position rowList[t], keys j)
//   taylor2         [1, x_c, x_a·x_b/√2]
//   oprf            ratio·exp(e_r − max_r e_r), e_r = A‖ω_r‖² + √(1−4A)·u_r; key log-scale max_r e_r − ‖x‖²/2
//                   (the twin's ‖x‖²/2 and its one key shift, under ε = 0 only)
//   double-softmax  queries softmax_c(x); keys exp(y_c − o_c) with o_c = M_c + log S_c of the column over all
//                   keys, formed by the host (d floats at wOff); causal keys exp(y_c − max_c y), log-scale max_c y
// Thread mapping: one invocation per row of a slot (rows 0 … R−1 the queries, R … R+n−1 the keys): the
// projection u_r (or e_r) into proj, then the row's m4 vec4s of φ. Dispatch: (⌈(R + n) / 64⌉, direct slots).
// Bindings as rowFeatures (2: the direct table), and 5 the row list (R u32).
//
// rowFeatures thread mapping: one invocation per 4 consecutive rows of a slot (rows 0 … R−1 the queries, R … R+n−1 the
// keys): 4 × 8 register blocks of u (4 rows × 8 projections: 12 vec4 loads per 32 vec4 dots), then a
// second sweep reads u back and writes φ̃. Dispatch: (⌈⌈(R + n)/4⌉ / 64⌉, GPU slots).

struct Params {
  n: u32,
  rowCount: u32, // R
  xq: u32,       // exact slot: first vec4 of the Q rows
  xk: u32,       // exact slot: first vec4 of K
  d4: u32,       // vec4s per Q/K and W row
  ns: u32,       // vec4s per kscale slot: 2⌈n/8⌉
  scale4: f32,   // d^{-1/4}
  d: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> feats: array<vec4f>;
@group(0) @binding(2) var<storage, read> table: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> proj: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> kscale: array<f32>;
@group(0) @binding(5) var<storage, read> rowList: array<u32>;

const WG: u32 = 64u;
const NEG: f32 = -3.0e38;

@compute @workgroup_size(WG)
fn rowFeatures(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let e0 = table[2u * wid.y];
  let e1 = table[2u * wid.y + 1u];
  let R = p.rowCount;
  let total = R + p.n;
  let i0 = 4u * (wid.x * WG + lid);
  if (i0 >= total) { return; }
  let m = e0.w;
  let m4 = e0.z;
  let d4 = p.d4;
  // the 4 rows (clamped to the last), as vec4s over the rows: source row, destination row (in vec4s),
  // side (key?) — vectors, not private arrays, which SwiftShader keeps in memory when loop-indexed
  let ii = min(vec4u(i0) + vec4u(0u, 1u, 2u, 3u), vec4u(total - 1u));
  let key = ii >= vec4u(R);
  let src = select(vec4u(p.xq) + ii * d4, vec4u(p.xk) + (ii - vec4u(R)) * d4, key);
  let dst = select(vec4u(e0.x) + ii * m4, vec4u(e0.y) + (ii - vec4u(R)) * m4, key);
  let fl = e1.w;
  let hyper = select(vec4<bool>((fl & 1u) != 0u), vec4<bool>((fl & 4u) != 0u), key);
  let norm = select(vec4<bool>((fl & 2u) != 0u), vec4<bool>((fl & 8u) != 0u), key);
  let ratio = bitcast<f32>(e1.y);
  let s2 = p.scale4 * p.scale4;
  var sq = vec4f(0.0);
  for (var c = 0u; c < d4; c++) {
    let x0 = feats[src.x + c];
    let x1 = feats[src.y + c];
    let x2 = feats[src.z + c];
    let x3 = feats[src.w + c];
    sq += vec4f(dot(x0, x0), dot(x1, x1), dot(x2, x2), dot(x3, x3));
  }
  // sweep 1: u of 8 projections at a time (named accumulators, one per projection over the 4 rows)
  var mx = vec4f(NEG);
  let m8 = (m + 7u) / 8u;
  let wl = m - 1u;
  for (var r8 = 0u; r8 < m8; r8++) {
    let f0 = 8u * r8;
    let w0 = e1.x + min(f0, wl) * d4;
    let w1 = e1.x + min(f0 + 1u, wl) * d4;
    let w2 = e1.x + min(f0 + 2u, wl) * d4;
    let w3 = e1.x + min(f0 + 3u, wl) * d4;
    let w4 = e1.x + min(f0 + 4u, wl) * d4;
    let w5 = e1.x + min(f0 + 5u, wl) * d4;
    let w6 = e1.x + min(f0 + 6u, wl) * d4;
    let w7 = e1.x + min(f0 + 7u, wl) * d4;
    var a0 = vec4f(0.0);
    var a1 = vec4f(0.0);
    var a2 = vec4f(0.0);
    var a3 = vec4f(0.0);
    var a4 = vec4f(0.0);
    var a5 = vec4f(0.0);
    var a6 = vec4f(0.0);
    var a7 = vec4f(0.0);
    for (var c = 0u; c < d4; c++) {
      let x0 = feats[src.x + c];
      let x1 = feats[src.y + c];
      let x2 = feats[src.z + c];
      let x3 = feats[src.w + c];
      a0 += dot4(x0, x1, x2, x3, feats[w0 + c]);
      a1 += dot4(x0, x1, x2, x3, feats[w1 + c]);
      a2 += dot4(x0, x1, x2, x3, feats[w2 + c]);
      a3 += dot4(x0, x1, x2, x3, feats[w3 + c]);
      a4 += dot4(x0, x1, x2, x3, feats[w4 + c]);
      a5 += dot4(x0, x1, x2, x3, feats[w5 + c]);
      a6 += dot4(x0, x1, x2, x3, feats[w6 + c]);
      a7 += dot4(x0, x1, x2, x3, feats[w7 + c]);
    }
    a0 *= p.scale4;
    a1 *= p.scale4;
    a2 *= p.scale4;
    a3 *= p.scale4;
    a4 *= p.scale4;
    a5 *= p.scale4;
    a6 *= p.scale4;
    a7 *= p.scale4;
    // projections past m do not count (u0 always does: f0 < m)
    let lim = m - f0;
    mx = max(mx, select(a0, abs(a0), hyper));
    if (lim > 1u) { mx = max(mx, select(a1, abs(a1), hyper)); }
    if (lim > 2u) { mx = max(mx, select(a2, abs(a2), hyper)); }
    if (lim > 3u) { mx = max(mx, select(a3, abs(a3), hyper)); }
    if (lim > 4u) { mx = max(mx, select(a4, abs(a4), hyper)); }
    if (lim > 5u) { mx = max(mx, select(a5, abs(a5), hyper)); }
    if (lim > 6u) { mx = max(mx, select(a6, abs(a6), hyper)); }
    if (lim > 7u) { mx = max(mx, select(a7, abs(a7), hyper)); }
    let o = 2u * r8;
    proj[dst.x + o] = vec4f(a0.x, a1.x, a2.x, a3.x);
    proj[dst.y + o] = vec4f(a0.y, a1.y, a2.y, a3.y);
    proj[dst.z + o] = vec4f(a0.z, a1.z, a2.z, a3.z);
    proj[dst.w + o] = vec4f(a0.w, a1.w, a2.w, a3.w);
    // the second vec4 only while it holds projections (a row of proj has ⌈m/4⌉ of them at least)
    if (lim > 4u) {
      proj[dst.x + o + 1u] = vec4f(a4.x, a5.x, a6.x, a7.x);
      proj[dst.y + o + 1u] = vec4f(a4.y, a5.y, a6.y, a7.y);
      proj[dst.z + o + 1u] = vec4f(a4.z, a5.z, a6.z, a7.z);
      proj[dst.w + o + 1u] = vec4f(a4.w, a5.w, a6.w, a7.w);
    }
  }
  // sweep 2: φ̃ from u, row by row; the keys' log-scales
  let ls = mx - select(vec4f(0.0), sq * s2 / 2.0, norm);
  let ks = (fl >> 8u) * p.ns * 4u + ii - vec4u(R);
  writeRow(dst.x, mx.x, hyper.x, m, m4, ratio);
  if (key.x) { kscale[ks.x] = ls.x; }
  if (i0 + 1u < total) {
    writeRow(dst.y, mx.y, hyper.y, m, m4, ratio);
    if (key.y) { kscale[ks.y] = ls.y; }
  }
  if (i0 + 2u < total) {
    writeRow(dst.z, mx.z, hyper.z, m, m4, ratio);
    if (key.z) { kscale[ks.z] = ls.z; }
  }
  if (i0 + 3u < total) {
    writeRow(dst.w, mx.w, hyper.w, m, m4, ratio);
    if (key.w) { kscale[ks.w] = ls.w; }
  }
}

// φ̃ of one row (destination b, m4 vec4s) from its u in proj: f < m from +u, hyperbolic m ≤ f < 2m from −u;
// zero past m′. Whole vec4s where the −u block is aligned (4 | m), else scalar reads.
fn writeRow(b: u32, mk: f32, hyper: bool, m: u32, m4: u32, ratio: f32) {
  let lane = vec4u(0u, 1u, 2u, 3u);
  let mu4 = (m + 3u) / 4u;
  if (!hyper || m % 4u == 0u) {
    for (var o = 0u; o < m4; o++) {
      var phi: vec4f;
      if (o < mu4) {
        phi = select(vec4f(0.0), ratio * exp(proj[b + o] - mk), vec4u(4u * o) + lane < vec4u(m));
      } else {
        // hyperbolic with 4 | m: the −u block, aligned
        phi = ratio * exp(-proj[b + o - mu4] - mk);
      }
      feats[b + o] = phi;
    }
    return;
  }
  for (var o = 0u; o < m4; o++) {
    var phi = vec4f(0.0);
    for (var e = 0u; e < 4u; e++) {
      let f = 4u * o + e;
      if (f < m) {
        phi[e] = ratio * exp(proj[b + f / 4u][f % 4u] - mk);
      } else if (f < 2u * m) {
        let g = f - m;
        phi[e] = ratio * exp(-proj[b + g / 4u][g % 4u] - mk);
      }
    }
    feats[b + o] = phi;
  }
}

/// x_c of the row at `src` (scaled by d^{-1/4}).
fn xAt(src: u32, c: u32) -> f32 {
  return feats[src + c / 4u][c % 4u] * p.scale4;
}

/// Feature dimension m′ of a direct map.
fn directDim(code: u32, m: u32, d: u32) -> u32 {
  switch (code) {
    case DM_TRIG: { return 2u * m; }
    case DM_RELU, DM_OPRF: { return m; }
    case DM_ELU1, DM_DOUBLE_SOFTMAX: { return d; }
    case DM_COSFORMER: { return 2u * d; }
    default: { return 1u + d + d * d; } // DM_TAYLOR2
  }
}

@compute @workgroup_size(WG)
fn rowFeaturesDirect(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let e0 = table[2u * wid.y];
  let e1 = table[2u * wid.y + 1u];
  let R = p.rowCount;
  let i = wid.x * WG + lid;
  if (i >= R + p.n) { return; }
  let key = i >= R;
  let d = p.d;
  let d4 = p.d4;
  let m = e0.w;
  let m4 = e0.z;
  let wOff = e1.x;
  let ratio = bitcast<f32>(e1.y);
  let A = bitcast<f32>(e1.z);
  let code = e1.w & 0xffu;
  let causal = (e1.w & 0x100u) != 0u;
  var src = p.xq + i * d4;
  var dst = e0.x + i * m4;
  var position = 0u;
  if (key) {
    src = p.xk + (i - R) * d4;
    dst = e0.y + (i - R) * m4;
    position = i - R;
  } else {
    position = rowList[i];
  }
  var hn = 0.0;
  for (var c = 0u; c < d4; c++) {
    let x = feats[src + c] * p.scale4;
    hn += dot(x, x);
  }
  hn *= 0.5;
  // per-row quantities: the maximum for the shifted maps, the softmax sum, the key's log-scale
  var mx = NEG;
  var sum = 0.0;
  var logScale = 0.0;
  if (code == DM_TRIG || code == DM_RELU || code == DM_OPRF) {
    // u (oprf: e) of 4 projections at a time, written as one vec4 (projections past m repeat the last)
    let b = sqrt(1.0 - 4.0 * A);
    let wl = m - 1u;
    for (var q = 0u; q < (m + 3u) / 4u; q++) {
      let w0 = wOff + min(4u * q, wl) * d4;
      let w1 = wOff + min(4u * q + 1u, wl) * d4;
      let w2 = wOff + min(4u * q + 2u, wl) * d4;
      let w3 = wOff + min(4u * q + 3u, wl) * d4;
      var u = vec4f(0.0);
      var wsq = vec4f(0.0);
      for (var c = 0u; c < d4; c++) {
        let a0 = feats[w0 + c];
        let a1 = feats[w1 + c];
        let a2 = feats[w2 + c];
        let a3 = feats[w3 + c];
        u += dot4(a0, a1, a2, a3, feats[src + c]);
        wsq += vec4f(dot(a0, a0), dot(a1, a1), dot(a2, a2), dot(a3, a3));
      }
      u *= p.scale4;
      if (code == DM_OPRF) {
        u = A * wsq + b * u;
        mx = max(mx, max(max(u.x, u.y), max(u.z, u.w)));
      }
      proj[dst + q] = u;
    }
    if (code == DM_TRIG) { logScale = hn; }
    if (code == DM_OPRF) { logScale = mx - hn; }
  } else if (code == DM_DOUBLE_SOFTMAX) {
    for (var c = 0u; c < d; c++) { mx = max(mx, xAt(src, c)); }
    if (!key) {
      for (var c = 0u; c < d; c++) { sum += exp(xAt(src, c) - mx); }
    } else if (causal) {
      logScale = mx;
    }
  }
  // (sin_cos, wgsl-helpers.wgsl: the builtins are ≈ 1e-4 off on SwiftShader)
  let theta = sin_cos(PI * f32(position) / (2.0 * f32(max(p.n, 1u))));
  // one loop per map (SwiftShader runs a divergent switch's every case under a mask: a switch per feature
  // paid for every map's formula), whole vec4s where the map's blocks are aligned
  let mp = directDim(code, m, d);
  let lane = vec4u(0u, 1u, 2u, 3u);
  let mu4 = m / 4u;
  let du4 = d / 4u;
  switch (code) {
    case DM_TRIG: {
      if (m % 4u == 0u) {
        for (var o = 0u; o < m4; o++) {
          let u = proj[dst + select(o, o - mu4, o >= mu4)];
          let s0 = sin_cos(u.x);
          let s1 = sin_cos(u.y);
          let s2 = sin_cos(u.z);
          let s3 = sin_cos(u.w);
          feats[dst + o] = ratio * select(vec4f(s0.x, s1.x, s2.x, s3.x), vec4f(s0.y, s1.y, s2.y, s3.y), o >= mu4);
        }
      } else {
        for (var o = 0u; o < m4; o++) {
          var v = vec4f(0.0);
          for (var e = 0u; e < 4u; e++) {
            let f = 4u * o + e;
            let g = select(f, f - m, f >= m);
            let sc = sin_cos(proj[dst + g / 4u][g % 4u]);
            v[e] = select(0.0, ratio * select(sc.x, sc.y, f >= m), f < mp);
          }
          feats[dst + o] = v;
        }
      }
    }
    case DM_RELU: {
      for (var o = 0u; o < m4; o++) {
        let ok = vec4u(4u * o) + lane < vec4u(mp);
        feats[dst + o] = select(vec4f(0.0), max(ratio * proj[dst + o], vec4f(0.0)) + RELU_EPS, ok);
      }
    }
    case DM_OPRF: {
      for (var o = 0u; o < m4; o++) {
        let ok = vec4u(4u * o) + lane < vec4u(mp);
        feats[dst + o] = select(vec4f(0.0), ratio * exp(proj[dst + o] - mx), ok);
      }
    }
    case DM_ELU1: {
      for (var o = 0u; o < m4; o++) {
        let ok = vec4u(4u * o) + lane < vec4u(mp);
        let x = feats[src + o] * p.scale4;
        feats[dst + o] = select(vec4f(0.0), select(exp(x), x + 1.0, x > vec4f(0.0)), ok);
      }
    }
    case DM_DOUBLE_SOFTMAX: {
      for (var o = 0u; o < m4; o++) {
        let ok = vec4u(4u * o) + lane < vec4u(mp);
        let x = feats[src + o] * p.scale4;
        var v = exp(x - mx);
        if (!key) { v /= sum; }
        else if (!causal) { v = exp(x - feats[wOff + o]); }
        feats[dst + o] = select(vec4f(0.0), v, ok);
      }
    }
    case DM_COSFORMER: {
      if (d % 4u == 0u) {
        for (var o = 0u; o < m4; o++) {
          let x = max(feats[src + select(o, o - du4, o >= du4)] * p.scale4, vec4f(0.0));
          feats[dst + o] = x * select(theta.y, theta.x, o >= du4);
        }
      } else {
        for (var o = 0u; o < m4; o++) {
          var v = vec4f(0.0);
          for (var e = 0u; e < 4u; e++) {
            let f = 4u * o + e;
            let c = select(f, f - d, f >= d);
            v[e] = select(0.0, max(xAt(src, c), 0.0) * select(theta.y, theta.x, f >= d), f < mp);
          }
          feats[dst + o] = v;
        }
      }
    }
    default: { // DM_TAYLOR2: [1, x_c, x_a·x_b/√2]
      for (var o = 0u; o < m4; o++) {
        var v = vec4f(0.0);
        for (var e = 0u; e < 4u; e++) {
          let f = 4u * o + e;
          let g = f - 1u - d;
          if (f == 0u) { v[e] = 1.0; }
          else if (f <= d) { v[e] = xAt(src, f - 1u); }
          else if (f < mp) { v[e] = xAt(src, g / d) * xAt(src, g % d) * SQRT1_2; }
        }
        feats[dst + o] = v;
      }
    }
  }
  if (key) { kscale[(e1.w >> 16u) * p.ns * 4u + i - R] = logScale; }
}
