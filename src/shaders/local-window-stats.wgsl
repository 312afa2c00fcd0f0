// Su Jianlin's local truncation (kexue.fm/archives/8338), per query row i, against exact attention:
//
//   T_w(M)_ij = M_ij·[|i − j| ≤ w] / Σ_{|i − l| ≤ w} M_il
//
// (a window sum that is not a positive finite number leaves the row 0: `degenerate`). With
// S = 2 + 4W for W windows w_t:
//   stats[i·S]            = Σ_j A_ij²                        stats[i·S + 1] = ‖(AV)_i‖²
//   stats[i·S + 2 + 4t]   = Σ_j (T_w(Â)_ij − A_ij)²          … + 1 = Σ_j (T_w(A)_ij − A_ij)²
//   … + 2 = ‖(T_w(Â)V)_i − (AV)_i‖² (0 without V)            … + 3 = degenerate(T_w(Â) row) ? 1 : 0
// CPU twin: core/local-window.ts windowRowStats (f64 there, f32 here).
//
// Bindings: 0 params, 1 mats = [A | Â | …] (n×n row-major planes, Â at p.planeOff: the planes of
// attention-matrix-view.wgsl fromRaw, or of attention-row-stats.wgsl fullRows with every row listed),
// 2 V (n rows of p.dv4 vec4, zero-padded: pack-vec4.wgsl; unread when p.hasV = 0), 3 the windows (W ≤ W_MAX u32, each ≤ n), 4 stats (n·S f32).
// Thread mapping: one invocation per row, every sum sequential over the keys in order (no
// barriers: on a software adapter a barrier costs more than these few thousand operations per row).
// The part outside each window goes from the last window back (additions only, one pass over the row).
// The output error goes by blocks of 16 columns of V (4 vec4s, a mat4x4f: each entry of A and Â read
// once per block, not once per 4 columns — the row's entries are a gather across the invocations, the
// dearest load here; 19.0 → 12.8 ms at n = 256, d = 16, two variants, on SwiftShader): (AV)_i of the block once,
// then the windows in order, each adding only the keys its window has beyond the previous one when it
// contains it (the ascending grid), into stats[… + 2] of that window.
// Dispatch: ⌈n/WG⌉ workgroups over (x, y), row = (x + y·gridX)·WG + local index.

struct Params {
  n: u32,
  windows: u32,
  dv4: u32,
  gridX: u32,
  hasV: u32,
  planeOff: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> mats: array<f32>;
@group(0) @binding(2) var<storage, read> vals: array<vec4f>;
@group(0) @binding(3) var<storage, read> wins: array<u32>;
@group(0) @binding(4) var<storage, read_write> stats: array<f32>;

const WG: u32 = 64u;
const W_MAX: u32 = 32u;
const F32_MAX: f32 = 3.4028234e38;

fn usable(s: f32) -> bool {
  return s > 0.0 && s <= F32_MAX;
}

fn windowLo(i: u32, w: u32) -> u32 {
  return select(0u, i - w, i >= w);
}

/// V's row j, vec4 columns c0 … c0 + 3 (past the last: the last again, left out by sqCols' `valid`).
fn vRow(j: u32, c0: u32, last: u32) -> mat4x4f {
  let r = j * p.dv4;
  return mat4x4f(vals[r + min(c0, last)], vals[r + min(c0 + 1u, last)], vals[r + min(c0 + 2u, last)], vals[r + min(c0 + 3u, last)]);
}

/// Σ of the squared entries of the first `valid` columns.
fn sqCols(e: mat4x4f, valid: u32) -> f32 {
  var s = dot(e[0], e[0]);
  if (valid > 1u) { s += dot(e[1], e[1]); }
  if (valid > 2u) { s += dot(e[2], e[2]); }
  if (valid > 3u) { s += dot(e[3], e[3]); }
  return s;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i = (wid.x + wid.y * p.gridX) * WG + t;
  if (i >= p.n) { return; }
  let n = p.n;
  let dv4 = p.dv4;
  let a0 = i * n;
  let b0 = p.planeOff + i * n;
  let stride = 2u + 4u * p.windows;
  let base = i * stride;

  var sq = 0.0;
  for (var j = 0u; j < n; j++) {
    let a = mats[a0 + j];
    sq += a * a;
  }
  stats[base] = sq;

  // Outside a window both truncations are 0: Σ A² there, in both error slots. From the last window
  // back, each window lies inside the one before it on the ascending grid, so the left part [0, lo)
  // and the right part (hi, n) only grow: additions only (a difference of sums would cancel).
  var left = 0.0;
  var right = 0.0;
  var llo = 0u;
  var rhi = n - 1u;
  for (var k = p.windows; k > 0u; k--) {
    let w = wins[k - 1u];
    let lo = windowLo(i, w);
    let hi = min(n - 1u, i + w);
    if (lo < llo || hi > rhi) {
      left = 0.0;
      right = 0.0;
      llo = 0u;
      rhi = n - 1u;
    }
    for (var j = llo; j < lo; j++) {
      let a = mats[a0 + j];
      left += a * a;
    }
    for (var j = hi + 1u; j <= rhi; j++) {
      let a = mats[a0 + j];
      right += a * a;
    }
    llo = lo;
    rhi = hi;
    let o = base + 2u + 4u * (k - 1u);
    stats[o] = left + right;
    stats[o + 1u] = left + right;
  }

  // Â's window sums (0 for a degenerate window) for the output pass
  var sums: array<f32, W_MAX>;
  for (var wi = 0u; wi < p.windows; wi++) {
    let w = wins[wi];
    let lo = windowLo(i, w);
    let hi = min(n - 1u, i + w);
    var sb = 0.0;
    var sa = 0.0;
    for (var j = lo; j <= hi; j++) {
      sb += mats[b0 + j];
      sa += mats[a0 + j];
    }
    let okB = usable(sb);
    let okA = usable(sa);
    var eB = 0.0;
    var eA = 0.0;
    let ib = select(0.0, 1.0 / sb, okB);
    let ia = select(0.0, 1.0 / sa, okA);
    for (var j = lo; j <= hi; j++) {
      let a = mats[a0 + j];
      let tb = mats[b0 + j] * ib;
      let ta = a * ia;
      eB += (tb - a) * (tb - a);
      eA += (ta - a) * (ta - a);
    }
    let o = base + 2u + 4u * wi;
    stats[o] += eB;
    stats[o + 1u] += eA;
    stats[o + 2u] = 0.0;
    stats[o + 3u] = select(1.0, 0.0, okB);
    sums[wi] = select(0.0, sb, okB);
  }

  var oSq = 0.0;
  if (p.hasV != 0u) {
    let last = dv4 - 1u;
    for (var c0 = 0u; c0 < dv4; c0 += 4u) {
      let valid = min(4u, dv4 - c0);
      var ex = mat4x4f();
      for (var j = 0u; j < n; j++) { ex += mats[a0 + j] * vRow(j, c0, last); }
      oSq += sqCols(ex, valid);
      var acc = mat4x4f();
      var plo = 1u;
      var phi = 0u;
      for (var wi = 0u; wi < p.windows; wi++) {
        let w = wins[wi];
        let lo = windowLo(i, w);
        let hi = min(n - 1u, i + w);
        if (plo <= phi && lo <= plo && hi >= phi) {
          for (var j = lo; j < plo; j++) { acc += mats[b0 + j] * vRow(j, c0, last); }
          for (var j = phi + 1u; j <= hi; j++) { acc += mats[b0 + j] * vRow(j, c0, last); }
        } else {
          acc = mat4x4f();
          for (var j = lo; j <= hi; j++) { acc += mats[b0 + j] * vRow(j, c0, last); }
        }
        plo = lo;
        phi = hi;
        let s = sums[wi];
        var val = mat4x4f();
        if (s != 0.0) { val = mat4x4f(acc[0] / s, acc[1] / s, acc[2] / s, acc[3] / s); }
        stats[base + 4u + 4u * wi] += sqCols(val - ex, valid);
      }
    }
  }
  stats[base + 1u] = oSq;
}
