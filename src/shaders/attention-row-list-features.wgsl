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
// Thread mapping: one invocation per 4 consecutive rows of a slot (rows 0 … R−1 the queries, R … R+n−1 the
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
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> feats: array<vec4f>;
@group(0) @binding(2) var<storage, read> table: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> proj: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> kscale: array<f32>;

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
  // the 4 rows (clamped to the last): source row, destination row (in vec4s), side (key?)
  var src: array<u32, 4>;
  var dst: array<u32, 4>;
  var key = vec4<bool>(false);
  for (var k = 0u; k < 4u; k++) {
    let i = min(i0 + k, total - 1u);
    if (i < R) {
      src[k] = p.xq + i * d4;
      dst[k] = e0.x + i * m4;
    } else {
      src[k] = p.xk + (i - R) * d4;
      dst[k] = e0.y + (i - R) * m4;
      key[k] = true;
    }
  }
  let fl = e1.w;
  let hyper = select(vec4<bool>((fl & 1u) != 0u), vec4<bool>((fl & 4u) != 0u), key);
  let norm = select(vec4<bool>((fl & 2u) != 0u), vec4<bool>((fl & 8u) != 0u), key);
  let ratio = bitcast<f32>(e1.y);
  let s2 = p.scale4 * p.scale4;
  var sq = vec4f(0.0);
  for (var c = 0u; c < d4; c++) {
    sq += vec4f(dot(feats[src[0]+c], feats[src[0]+c]), dot(feats[src[1]+c], feats[src[1]+c]), dot(feats[src[2]+c], feats[src[2]+c]), dot(feats[src[3]+c], feats[src[3]+c]));
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
      let x0 = feats[src[0] + c];
      let x1 = feats[src[1] + c];
      let x2 = feats[src[2] + c];
      let x3 = feats[src[3] + c];
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
    for (var k = 0u; k < 4u; k++) {
      proj[dst[k] + 2u * r8] = vec4f(a0[k], a1[k], a2[k], a3[k]);
      // the second vec4 only while it holds projections (a row of proj has ⌈m/4⌉ of them at least)
      if (lim > 4u) { proj[dst[k] + 2u * r8 + 1u] = vec4f(a4[k], a5[k], a6[k], a7[k]); }
    }
  }
  // sweep 2: φ̃ from u (vec4 of output f = 4o … 4o+3; hyperbolic: f < m from +u, m ≤ f < 2m from −u)
  for (var k = 0u; k < 4u; k++) {
    if (i0 + k >= total) { break; }
    let b = dst[k];
    let mk = mx[k];
    for (var o = 0u; o < m4; o++) {
      var phi = vec4f(0.0);
      if (!hyper[k]) {
        let u = proj[b + o];
        phi = ratio * exp(u - mk);
        for (var e = 0u; e < 4u; e++) {
          if (4u * o + e >= m) { phi[e] = 0.0; }
        }
      } else {
        for (var e = 0u; e < 4u; e++) {
          let f = 4u * o + e;
          if (f < m) {
            phi[e] = ratio * exp(proj[b + f / 4u][f % 4u] - mk);
          } else if (f < 2u * m) {
            let g = f - m;
            phi[e] = ratio * exp(-proj[b + g / 4u][g % 4u] - mk);
          }
        }
      }
      feats[b + o] = phi;
    }
    if (key[k]) {
      let j = i0 + k - R;
      kscale[(fl >> 8u) * p.ns * 4u + j] = mk - select(0.0, sq[k] * s2 / 2.0, norm[k]);
    }
  }
}
