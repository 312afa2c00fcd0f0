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
// Bindings: 0 params, 1 mats = [A | Â] (two n×n row-major planes, Â at p.planeOff: the output of
// attention-row-stats.wgsl fullRows with every row listed), 2 V (n × dv rows; unread when p.hasV = 0),
// 3 the windows (W u32, each ≤ n), 4 stats (n·S f32).
// Thread mapping: one workgroup of WG threads per row; row sums strided over keys (thread t takes
// j ≡ t mod WG), reduced in a fixed tree order; output columns c ≡ t mod WG (dv ≤ DV_MAX). When a
// window contains the previous one (the ascending grid) the output sum Σ_j Â_ij v_jc carries over
// and only the new ring of keys is added.
// Dispatch: n workgroups over (x, y), row = x + y·gridX.

struct Params {
  n: u32,
  windows: u32,
  dv: u32,
  gridX: u32,
  hasV: u32,
  planeOff: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> mats: array<f32>;
@group(0) @binding(2) var<storage, read> vals: array<f32>;
@group(0) @binding(3) var<storage, read> wins: array<u32>;
@group(0) @binding(4) var<storage, read_write> stats: array<f32>;

const WG: u32 = 64u;
const DV_MAX: u32 = 256u;
const F32_MAX: f32 = 3.4028234e38;

var<workgroup> red: array<vec4f, WG>;
/** (AV)_i and the running window sum Σ_j Â_ij v_jc, per column (each column owned by one thread) */
var<workgroup> outExact: array<f32, DV_MAX>;
var<workgroup> outAcc: array<f32, DV_MAX>;

// Sum over the workgroup (fixed tree order). Uniform control flow.
fn reduce(v: vec4f, t: u32) -> vec4f {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (t < s) { red[t] += red[t + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn usable(s: f32) -> bool {
  return s > 0.0 && s <= F32_MAX;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i = wid.x + wid.y * p.gridX;
  if (i >= p.n) { return; }
  let n = p.n;
  let dv = p.dv;
  let a0 = i * n;
  let b0 = p.planeOff + i * n;
  let stride = 2u + 4u * p.windows;

  var sq = 0.0;
  for (var j = t; j < n; j += WG) {
    let a = mats[a0 + j];
    sq += a * a;
  }
  var oSq = 0.0;
  if (p.hasV != 0u) {
    for (var c = t; c < dv; c += WG) {
      var o = 0.0;
      for (var j = 0u; j < n; j++) { o += mats[a0 + j] * vals[j * dv + c]; }
      outExact[c] = o;
      outAcc[c] = 0.0;
      oSq += o * o;
    }
  }
  let tot = reduce(vec4f(sq, oSq, 0.0, 0.0), t);
  if (t == 0u) {
    stats[i * stride] = tot.x;
    stats[i * stride + 1u] = tot.y;
  }

  // the previous window [plo, phi] (none yet: empty)
  var plo = 1u;
  var phi = 0u;
  for (var wi = 0u; wi < p.windows; wi++) {
    let w = wins[wi];
    let lo = select(0u, i - w, i >= w);
    let hi = min(n - 1u, i + w);
    var sb = 0.0;
    var sa = 0.0;
    for (var j = lo + t; j <= hi; j += WG) {
      sb += mats[b0 + j];
      sa += mats[a0 + j];
    }
    let sums = reduce(vec4f(sb, sa, 0.0, 0.0), t);
    let okB = usable(sums.x);
    let okA = usable(sums.y);
    var eB = 0.0;
    var eA = 0.0;
    for (var j = t; j < n; j += WG) {
      let a = mats[a0 + j];
      let inside = j >= lo && j <= hi;
      var tb = 0.0;
      var ta = 0.0;
      if (inside && okB) { tb = mats[b0 + j] / sums.x; }
      if (inside && okA) { ta = a / sums.y; }
      eB += (tb - a) * (tb - a);
      eA += (ta - a) * (ta - a);
    }
    var eo = 0.0;
    if (p.hasV != 0u) {
      let nested = plo <= phi && lo <= plo && hi >= phi;
      for (var c = t; c < dv; c += WG) {
        var acc = 0.0;
        if (nested) {
          acc = outAcc[c];
          for (var j = lo; j < plo; j++) { acc += mats[b0 + j] * vals[j * dv + c]; }
          for (var j = phi + 1u; j <= hi; j++) { acc += mats[b0 + j] * vals[j * dv + c]; }
        } else {
          for (var j = lo; j <= hi; j++) { acc += mats[b0 + j] * vals[j * dv + c]; }
        }
        outAcc[c] = acc;
        var val = 0.0;
        if (okB) { val = acc / sums.x; }
        let e = val - outExact[c];
        eo += e * e;
      }
    }
    plo = lo;
    phi = hi;
    let errs = reduce(vec4f(eB, eA, eo, 0.0), t);
    if (t == 0u) {
      let o = i * stride + 2u + 4u * wi;
      stats[o] = errs.x;
      stats[o + 1u] = errs.y;
      stats[o + 2u] = errs.z;
      stats[o + 3u] = select(1.0, 0.0, okB);
    }
  }
}
