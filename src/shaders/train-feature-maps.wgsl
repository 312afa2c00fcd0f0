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
// Thread mapping: one invocation per (row, h) in `forward`, `backward` (maps 1–5), `key_apply`; per
// head and block of 4 rows in `forward_pos`, `backward_pos` (map 0, at the end); per (b, h) in
// `key_shift`; per (h, a ≤ dh, f) in `hedgehog_params` (summing over rows; a = dh is the bias).
// No workgroup memory, no barriers (on SwiftShader the cost is per workgroup and per barrier).
// Intermediates go through the outputs: the positive map's exponents and hedgehog's u are written
// into φ first and overwritten. Positive keys take three passes: `forward_pos` (exponents, the row max
// into RowMax), `key_shift` (Shift[b·H + h] = max over the sequence's rows), `key_apply`.
//
// Dispatch: ⌈items / 64⌉ workgroups of @workgroup_size(64), split over (x, y) with x = gx
// (item id = gid.x + gid.y·gx·64).

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
@group(0) @binding(13) var<storage, read_write> RowMax: array<f32>;

const WG: u32 = 64u;
const INV_SQRT2: f32 = 0.70710678118654752;

fn scale_s() -> f32 { return pow(f32(U.dh), -0.25); }

fn item(gid: vec3<u32>) -> u32 { return gid.x + gid.y * U.gx * WG; }

/// The (row, h) item r of `forward`, `backward`, `key_apply`: its features at ob = r·F in φ, its
/// input x at xb (a strided view of Q or K).
struct MapRow {
  r: u32,
  row: u32,
  h: u32,
  ob: u32,
  xb: u32,
}

fn map_row(gid: vec3<u32>) -> MapRow {
  let r = item(gid);
  let row = r / U.H;
  let h = r % U.H;
  return MapRow(r, row, h, r * U.F, U.off_x + row * U.ld_x + h * U.dh);
}

@compute @workgroup_size(64)
fn forward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let p = map_row(gid);
  if (p.r >= U.rows * U.H) { return; }
  let dh = U.dh;
  let sc = scale_s();
  switch U.map {
    // map 0 (positive): entry forward_pos
    case 1u: {
      for (var a = 0u; a < dh; a++) {
        let x = X[p.xb + a];
        Phi[p.ob + a] = select(exp(x), x + 1.0, x > 0.0);
      }
    }
    case 2u: {
      for (var a = 0u; a < dh; a++) { Phi[p.ob + a] = max(X[p.xb + a], 0.0); }
    }
    case 3u: {
      Phi[p.ob] = 1.0;
      for (var a = 0u; a < dh; a++) {
        let xa = sc * X[p.xb + a];
        Phi[p.ob + 1u + a] = xa;
        let qa = p.ob + 1u + dh + a * dh;
        for (var b = 0u; b < dh; b++) { Phi[qa + b] = xa * sc * X[p.xb + b] * INV_SQRT2; }
      }
    }
    case 4u: {
      let cs = Trig[2u * (p.row % U.L)];
      let sn = Trig[2u * (p.row % U.L) + 1u];
      for (var a = 0u; a < dh; a++) {
        let x = max(X[p.xb + a], 0.0);
        Phi[p.ob + a] = x * cs;
        Phi[p.ob + dh + a] = x * sn;
      }
    }
    default: {
      // hedgehog: u into the first half of φ, then both softmaxes
      let m = U.m;
      let wb = U.off_w + p.h * dh * m;
      let bb = U.off_b + p.h * m;
      var mx = -3.0e38;
      var mn = 3.0e38;
      for (var f = 0u; f < m; f++) {
        var u = Bh[bb + f];
        for (var a = 0u; a < dh; a++) { u = fma(X[p.xb + a], W[wb + a * m + f], u); }
        Phi[p.ob + f] = u;
        mx = max(mx, u);
        mn = min(mn, u);
      }
      var s1 = 0.0;
      var s2 = 0.0;
      for (var f = 0u; f < m; f++) {
        let u = Phi[p.ob + f];
        s1 += exp(u - mx);
        s2 += exp(mn - u);
      }
      let i1 = 1.0 / s1;
      let i2 = 1.0 / s2;
      for (var f = 0u; f < m; f++) {
        let u = Phi[p.ob + f];
        Phi[p.ob + f] = exp(u - mx) * i1;
        Phi[p.ob + m + f] = exp(mn - u) * i2;
      }
    }
  }
}

@compute @workgroup_size(64)
fn key_shift(@builtin(global_invocation_id) gid: vec3<u32>) {
  let bh = item(gid);
  if (bh >= U.B * U.H) { return; }
  let b = bh / U.H;
  let h = bh % U.H;
  var mx = -3.0e38;
  for (var t = 0u; t < U.L; t++) { mx = max(mx, RowMax[(b * U.L + t) * U.H + h]); }
  Shift[bh] = mx;
}

@compute @workgroup_size(64)
fn key_apply(@builtin(global_invocation_id) gid: vec3<u32>) {
  let p = map_row(gid);
  if (p.r >= U.rows * U.H) { return; }
  let c = Shift[(p.row / U.L) * U.H + p.h];
  let ob = p.ob;
  let inv = 1.0 / sqrt(f32(U.m));
  for (var f = 0u; f < U.m; f++) { Phi[ob + f] = exp(Phi[ob + f] - c) * inv; }
}

@compute @workgroup_size(64)
fn backward(@builtin(global_invocation_id) gid: vec3<u32>) {
  let p = map_row(gid);
  if (p.r >= U.rows * U.H) { return; }
  let dh = U.dh;
  let sc = scale_s();
  let xo = U.off_dx + p.row * U.ld_dx + p.h * dh;
  switch U.map {
    // map 0 (positive): entry backward_pos
    case 1u: {
      for (var a = 0u; a < dh; a++) {
        let x = X[p.xb + a];
        let d = dPhi[p.ob + a];
        dX[xo + a] = select(d * exp(x), d, x > 0.0);
      }
    }
    case 2u: {
      for (var a = 0u; a < dh; a++) { dX[xo + a] = select(0.0, dPhi[p.ob + a], X[p.xb + a] > 0.0); }
    }
    case 3u: {
      let qb = p.ob + 1u + dh;
      for (var c = 0u; c < dh; c++) {
        var q = 0.0;
        for (var b = 0u; b < dh; b++) { q = fma(dPhi[qb + c * dh + b] + dPhi[qb + b * dh + c], X[p.xb + b], q); }
        dX[xo + c] = sc * (dPhi[p.ob + 1u + c] + sc * q * INV_SQRT2);
      }
    }
    case 4u: {
      let cs = Trig[2u * (p.row % U.L)];
      let sn = Trig[2u * (p.row % U.L) + 1u];
      for (var a = 0u; a < dh; a++) {
        dX[xo + a] = select(0.0, dPhi[p.ob + a] * cs + dPhi[p.ob + dh + a] * sn, X[p.xb + a] > 0.0);
      }
    }
    default: {
      let m = U.m;
      var A = 0.0;
      var Bn = 0.0;
      for (var f = 0u; f < m; f++) {
        A = fma(dPhi[p.ob + f], PhiIn[p.ob + f], A);
        Bn = fma(dPhi[p.ob + m + f], PhiIn[p.ob + m + f], Bn);
      }
      let ub = p.r * m;
      for (var f = 0u; f < m; f++) {
        dU[ub + f] = PhiIn[p.ob + f] * (dPhi[p.ob + f] - A) - PhiIn[p.ob + m + f] * (dPhi[p.ob + m + f] - Bn);
      }
      let wb = U.off_w + p.h * dh * m;
      for (var a = 0u; a < dh; a++) {
        var acc = 0.0;
        for (var f = 0u; f < m; f++) { acc = fma(dU[ub + f], W[wb + a * m + f], acc); }
        dX[xo + a] = acc;
      }
    }
  }
}

@compute @workgroup_size(64)
fn hedgehog_params(@builtin(global_invocation_id) gid: vec3<u32>) {
  let id = item(gid);
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
