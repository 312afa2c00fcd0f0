// Feature maps φ of the trainer's linear attention, forward and backward (Jacobian-transpose)
// (CPU twin: src/core/train/feature-map-grad.ts `featureForward` / `featureBackward`;
// dispatcher: src/gpu/train/feature-maps.ts).
//
// Per head h the map reads x = X[row, h·dh … h·dh + dh − 1] (a strided view of Q or K) and writes
// F features φ[(row·H + h)·F + f] (φ is (B·L)×(H·F), head h in columns h·F …). With s = dh^{-1/4}:
//   map 0 positive (FAVOR+): x̃ = s·x, u_f = w_f·x̃ (W per head m×dh: W[off_w + (h·m + f)·dh + a]),
//     φ_f = exp(e_f − c)/√m with the exponent e_f = u_f − ‖x̃‖²/2 and c detached: query max_f e_f
//     of the row; key the max of e over the sequence's rows and f (entry `key_shift`, one scalar
//     per (b, h)). Both cancel in Â's row normalization (up to δ).
//     Backward: g_f = dφ_f φ_f, dx = s·(Wᵀg − x̃ Σ_f g_f).
//   map 1 elu1: φ = elu(x) + 1 (x > 0: x + 1, else eˣ); dx = dφ·(x > 0 ? 1 : eˣ).
//   map 2 relu: φ = max(x, 0); dx = x > 0 ? dφ : 0.
//   map 3 taylor2: φ = [1, x̃, vec(x̃x̃ᵀ)/√2] (F = 1 + dh + dh², entry 1 + dh + a·dh + b is x̃_a x̃_b/√2);
//     dx_c = s·(dφ_{1+c} + Σ_b (dφ_{c,b} + dφ_{b,c}) x̃_b/√2).
//   map 4 cosformer: φ = [relu(x) cos(πt/2L), relu(x) sin(πt/2L)], t = row mod L (F = 2dh); the
//     cos, sin pairs come from the table Trig (2L, computed in f64 on the host: WGSL's sin/cos
//     may be off by 2⁻¹¹, SwiftShader's are, and the twin's are exact);
//     dx = x > 0 ? dφ_cos cos + dφ_sin sin : 0.
//   map 5 hedgehog: u = x Wh + bh (Wh per head dh×m at off_w + (h·dh + a)·m + f, bh at off_b + h·m + f),
//     φ = [softmax(u) ‖ softmax(−u)] (F = 2m); with p, n the two halves:
//     du = p ⊙ (dp − dp·p) − n ⊙ (dn − dn·n), dx = du Whᵀ, dWh = Σ_rows xᵀ du, dbh = Σ_rows du
//     (du goes through the scratch dU (rows·H·m) to entry `hedgehog_params`).
//
// Thread mapping: `forward`, `backward`: one workgroup of 64 invocations per (row, h); x staged in
// workgroup memory (dh ≤ 256), invocation t handles features f = t, t + 64, … (u and g of the
// positive / hedgehog maps kept in workgroup memory, m ≤ 1024), maxima and sums by tree reductions.
// `key_shift`: one workgroup per (b, h) over the L·m projections. `hedgehog_params`: one
// invocation per (h, a ≤ dh, f) summing over rows (a = dh is the bias).
//
// Dispatch: forward/backward rows·H workgroups, key_shift B·H workgroups, hedgehog_params
// ⌈H·(dh+1)·m / 64⌉ workgroups; all @workgroup_size(64), split over (x, y) with x = gx.

struct Params {
  rows: u32, L: u32, H: u32, dh: u32,
  F: u32, m: u32, map: u32, side: u32,
  off_x: u32, ld_x: u32, off_w: u32, off_b: u32,
  off_dx: u32, ld_dx: u32, off_dw: u32, off_db: u32,
  gx: u32, B: u32, _p0: u32, _p1: u32,
}

@group(0) @binding(0) var<uniform> U: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> W: array<f32>;
@group(0) @binding(3) var<storage, read> Bh: array<f32>;
@group(0) @binding(4) var<storage, read_write> Phi: array<f32>;
@group(0) @binding(5) var<storage, read_write> Shift: array<f32>;
@group(0) @binding(6) var<storage, read> PhiIn: array<f32>;
@group(0) @binding(7) var<storage, read> dPhi: array<f32>;
@group(0) @binding(8) var<storage, read_write> dX: array<f32>;
@group(0) @binding(9) var<storage, read_write> dU: array<f32>;
@group(0) @binding(10) var<storage, read_write> dW: array<f32>;
@group(0) @binding(11) var<storage, read_write> dB: array<f32>;
@group(0) @binding(12) var<storage, read> Trig: array<f32>;

const WG: u32 = 64u;
const INV_SQRT2: f32 = 0.70710678118654752;

var<workgroup> xs: array<f32, 256>;
var<workgroup> us: array<f32, 1024>;
var<workgroup> red: array<f32, 64>;

fn reduce_max(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (t < s) { red[t] = max(red[t], red[t + s]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn reduce_sum(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (t < s) { red[t] = red[t] + red[t + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn scale_s() -> f32 { return pow(f32(U.dh), -0.25); }

/// x of (row, h) into xs
fn stage_x(t: u32, row: u32, h: u32) {
  for (var a = t; a < U.dh; a += WG) { xs[a] = X[U.off_x + row * U.ld_x + h * U.dh + a]; }
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn key_shift(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let bh = wg.x + wg.y * U.gx;
  if (bh >= U.B * U.H) { return; }
  let b = bh / U.H;
  let h = bh % U.H;
  let dh = U.dh;
  let m = U.m;
  let wb = U.off_w + h * m * dh;
  let sc = scale_s();
  var mx = -3.0e38;
  for (var idx = t; idx < U.L * m; idx += WG) {
    let row = b * U.L + idx / m;
    let f = idx % m;
    let xb = U.off_x + row * U.ld_x + h * dh;
    var u = 0.0;
    var n = 0.0;
    for (var a = 0u; a < dh; a++) {
      let x = X[xb + a];
      u = fma(W[wb + f * dh + a], x, u);
      n = fma(x, x, n);
    }
    mx = max(mx, u * sc - 0.5 * sc * sc * n);
  }
  let r = reduce_max(t, mx);
  if (t == 0u) { Shift[bh] = r; }
}

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let r = wg.x + wg.y * U.gx;
  if (r >= U.rows * U.H) { return; }
  let row = r / U.H;
  let h = r % U.H;
  stage_x(t, row, h);
  let ob = r * U.F;
  let dh = U.dh;
  let sc = scale_s();
  switch U.map {
    case 0u: {
      let m = U.m;
      var hp = 0.0;
      for (var a = t; a < dh; a += WG) { hp = fma(xs[a], xs[a], hp); }
      let hn = 0.5 * sc * sc * reduce_sum(t, hp);
      let wb = U.off_w + h * m * dh;
      var mx = -3.0e38;
      for (var f = t; f < m; f += WG) {
        var u = 0.0;
        for (var a = 0u; a < dh; a++) { u = fma(W[wb + f * dh + a], xs[a], u); }
        let e = u * sc - hn;
        us[f] = e;
        mx = max(mx, e);
      }
      var c = reduce_max(t, mx);
      if (U.side == 1u) { c = Shift[(row / U.L) * U.H + h]; }
      let inv = 1.0 / sqrt(f32(m));
      for (var f = t; f < m; f += WG) { Phi[ob + f] = exp(us[f] - c) * inv; }
    }
    case 1u: {
      for (var a = t; a < dh; a += WG) {
        let x = xs[a];
        Phi[ob + a] = select(exp(x), x + 1.0, x > 0.0);
      }
    }
    case 2u: {
      for (var a = t; a < dh; a += WG) { Phi[ob + a] = max(xs[a], 0.0); }
    }
    case 3u: {
      for (var f = t; f < U.F; f += WG) {
        var v = 1.0;
        if (f >= 1u && f <= dh) {
          v = sc * xs[f - 1u];
        } else if (f > dh) {
          let e = f - 1u - dh;
          v = sc * sc * xs[e / dh] * xs[e % dh] * INV_SQRT2;
        }
        Phi[ob + f] = v;
      }
    }
    case 4u: {
      let cs = Trig[2u * (row % U.L)];
      let sn = Trig[2u * (row % U.L) + 1u];
      for (var f = t; f < 2u * dh; f += WG) {
        let x = max(xs[f % dh], 0.0);
        Phi[ob + f] = x * select(sn, cs, f < dh);
      }
    }
    default: {
      // hedgehog
      let m = U.m;
      let wb = U.off_w + h * dh * m;
      let bb = U.off_b + h * m;
      var mx = -3.0e38;
      var mn = 3.0e38;
      for (var f = t; f < m; f += WG) {
        var u = Bh[bb + f];
        for (var a = 0u; a < dh; a++) { u = fma(xs[a], W[wb + a * m + f], u); }
        us[f] = u;
        mx = max(mx, u);
        mn = min(mn, u);
      }
      let M = reduce_max(t, mx);
      let N = -reduce_max(t, -mn);
      var s1 = 0.0;
      var s2 = 0.0;
      for (var f = t; f < m; f += WG) {
        s1 += exp(us[f] - M);
        s2 += exp(N - us[f]);
      }
      let i1 = 1.0 / reduce_sum(t, s1);
      let i2 = 1.0 / reduce_sum(t, s2);
      for (var f = t; f < m; f += WG) {
        Phi[ob + f] = exp(us[f] - M) * i1;
        Phi[ob + m + f] = exp(N - us[f]) * i2;
      }
    }
  }
}

@compute @workgroup_size(64)
fn backward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let r = wg.x + wg.y * U.gx;
  if (r >= U.rows * U.H) { return; }
  let row = r / U.H;
  let h = r % U.H;
  stage_x(t, row, h);
  let ob = r * U.F;
  let dh = U.dh;
  let sc = scale_s();
  let xo = U.off_dx + row * U.ld_dx + h * dh;
  switch U.map {
    case 0u: {
      let m = U.m;
      var part = 0.0;
      for (var f = t; f < m; f += WG) {
        let g = dPhi[ob + f] * PhiIn[ob + f];
        us[f] = g;
        part += g;
      }
      let G = reduce_sum(t, part);
      let wb = U.off_w + h * m * dh;
      for (var a = t; a < dh; a += WG) {
        var acc = 0.0;
        for (var f = 0u; f < m; f++) { acc = fma(us[f], W[wb + f * dh + a], acc); }
        dX[xo + a] = sc * (acc - sc * xs[a] * G);
      }
    }
    case 1u: {
      for (var a = t; a < dh; a += WG) {
        let x = xs[a];
        let d = dPhi[ob + a];
        dX[xo + a] = select(d * exp(x), d, x > 0.0);
      }
    }
    case 2u: {
      for (var a = t; a < dh; a += WG) { dX[xo + a] = select(0.0, dPhi[ob + a], xs[a] > 0.0); }
    }
    case 3u: {
      let qb = ob + 1u + dh;
      for (var c = t; c < dh; c += WG) {
        var q = 0.0;
        for (var b = 0u; b < dh; b++) { q = fma(dPhi[qb + c * dh + b] + dPhi[qb + b * dh + c], xs[b], q); }
        dX[xo + c] = sc * (dPhi[ob + 1u + c] + sc * q * INV_SQRT2);
      }
    }
    case 4u: {
      let cs = Trig[2u * (row % U.L)];
      let sn = Trig[2u * (row % U.L) + 1u];
      for (var a = t; a < dh; a += WG) {
        dX[xo + a] = select(0.0, dPhi[ob + a] * cs + dPhi[ob + dh + a] * sn, xs[a] > 0.0);
      }
    }
    default: {
      let m = U.m;
      var pa = 0.0;
      var pb = 0.0;
      for (var f = t; f < m; f += WG) {
        pa = fma(dPhi[ob + f], PhiIn[ob + f], pa);
        pb = fma(dPhi[ob + m + f], PhiIn[ob + m + f], pb);
      }
      let A = reduce_sum(t, pa);
      let Bn = reduce_sum(t, pb);
      for (var f = t; f < m; f += WG) {
        let du = PhiIn[ob + f] * (dPhi[ob + f] - A) - PhiIn[ob + m + f] * (dPhi[ob + m + f] - Bn);
        us[f] = du;
        dU[r * m + f] = du;
      }
      workgroupBarrier();
      let wb = U.off_w + h * dh * m;
      for (var a = t; a < dh; a += WG) {
        var acc = 0.0;
        for (var f = 0u; f < m; f++) { acc = fma(us[f], W[wb + a * m + f], acc); }
        dX[xo + a] = acc;
      }
    }
  }
}

@compute @workgroup_size(64)
fn hedgehog_params(@builtin(global_invocation_id) gid: vec3<u32>) {
  let id = gid.x + gid.y * U.gx * WG;
  let m = U.m;
  let dh = U.dh;
  let f = id % m;
  let a = (id / m) % (dh + 1u);
  let h = id / (m * (dh + 1u));
  if (h >= U.H) { return; }
  var acc = 0.0;
  for (var row = 0u; row < U.rows; row++) {
    var x = 1.0;
    if (a < dh) { x = X[U.off_x + row * U.ld_x + h * dh + a]; }
    acc = fma(x, dU[(row * U.H + h) * m + f], acc);
  }
  if (a < dh) {
    dW[U.off_dw + (h * dh + a) * m + f] = acc;
  } else {
    dB[U.off_db + h * m + f] = acc;
  }
}
