// Row reductions of attention-row-stats.wgsl (the analyses' batched form of the same formulas:
// attention-row-list-batch.wgsl rowReduce); the dispatchers prepend it after attention-tile.wgsl. For the 4 rows `ir` of a
// row group against one micro-tile of keys j0 + u + TG·x (x < RN), with s = q·k/√d, g = φ(q)·φ(k):
//   normAddExact, normAddLinear  online row normalizers: M = max s, ℓ = Σ exp(s − M) (rescaled when M
//               grows); D = Σ g
//   statsAdd    with A = exp(s − M)/S, Â = g/D (0 when D = 0), log A = s − M − log S:
//               −A log A, −Â log Â, (A − Â)², A², A (log A − log max(Â, 1e-30))   (core/matrix-view.ts)
//   normCombine, statsCombine  the TG partials of a row, combined by lane u = 0 in a fixed order
//               (deterministic); they hold a workgroup barrier, so every invocation calls them.
// Bindings: 5 norms (n vec4f: M, S, D, 0), 6 out (f32), 7 row list (R u32).

@group(0) @binding(5) var<storage, read_write> norms: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> outBuf: array<f32>;
@group(0) @binding(7) var<storage, read> rowList: array<u32>;

var<workgroup> lanesA: array<vec4f, WG>;
var<workgroup> lanesB: array<vec4f, WG>;
var<workgroup> lanesC: array<vec4f, WG>;
var<workgroup> lanesD: array<vec4f, WG>;
var<workgroup> lanesE: array<vec4f, WG>;

// Which of the 4 rows `ir` may attend to key j.
fn allowed(ir: vec4u, j: u32) -> vec4<bool> {
  let inRange = vec4<bool>(j < p.n);
  if (p.causal != 0u) { return inRange & (vec4u(j) <= ir); }
  return inRange;
}

struct NormAcc {
  m: vec4f,
  l: vec4f,
  d: vec4f,
}

fn normStart() -> NormAcc {
  return NormAcc(vec4f(NEG), vec4f(0.0), vec4f(0.0));
}

// The micro-tile's key slots are read with constant indices throughout (slot x only while x < RN):
// a loop-indexed read of its arrays is a gather from private memory on SwiftShader.
fn slotOk(ir: vec4u, j0: u32, u: u32, x: u32) -> vec4<bool> {
  return allowed(ir, j0 + u + x * TG) & vec4<bool>(x < RN);
}

// The exact part (M, ℓ) of normAdd from the scores s[x] (already scaled) of slot x; normAddLinear the
// linear part D from g[x]. Two calls, so a caller can form g after it is done with s (fewer live
// registers); each accumulator is summed in slot order, as one loop over the slots would.
fn normAddExact(acc: NormAcc, s: array<vec4f, 8>, ir: vec4u, j0: u32, u: u32) -> NormAcc {
  let ok0 = slotOk(ir, j0, u, 0u);
  let ok1 = slotOk(ir, j0, u, 1u);
  let ok2 = slotOk(ir, j0, u, 2u);
  let ok3 = slotOk(ir, j0, u, 3u);
  let ok4 = slotOk(ir, j0, u, 4u);
  let ok5 = slotOk(ir, j0, u, 5u);
  let ok6 = slotOk(ir, j0, u, 6u);
  let ok7 = slotOk(ir, j0, u, 7u);
  var tmax = max(
    max(select(vec4f(NEG), s[0], ok0), select(vec4f(NEG), s[1], ok1)),
    max(select(vec4f(NEG), s[2], ok2), select(vec4f(NEG), s[3], ok3)),
  );
  if (RN > 4u) {
    tmax = max(
      tmax,
      max(
        max(select(vec4f(NEG), s[4], ok4), select(vec4f(NEG), s[5], ok5)),
        max(select(vec4f(NEG), s[6], ok6), select(vec4f(NEG), s[7], ok7)),
      ),
    );
  }
  let mNew = max(acc.m, tmax);
  var l = acc.l * exp(acc.m - mNew);
  l += select(vec4f(0.0), exp(s[0] - mNew), ok0);
  l += select(vec4f(0.0), exp(s[1] - mNew), ok1);
  l += select(vec4f(0.0), exp(s[2] - mNew), ok2);
  l += select(vec4f(0.0), exp(s[3] - mNew), ok3);
  if (RN > 4u) {
    l += select(vec4f(0.0), exp(s[4] - mNew), ok4);
    l += select(vec4f(0.0), exp(s[5] - mNew), ok5);
    l += select(vec4f(0.0), exp(s[6] - mNew), ok6);
    l += select(vec4f(0.0), exp(s[7] - mNew), ok7);
  }
  return NormAcc(mNew, l, acc.d);
}

fn normAddLinear(acc: NormAcc, g: array<vec4f, 8>, ir: vec4u, j0: u32, u: u32) -> NormAcc {
  var d = acc.d;
  d += select(vec4f(0.0), g[0], slotOk(ir, j0, u, 0u));
  d += select(vec4f(0.0), g[1], slotOk(ir, j0, u, 1u));
  d += select(vec4f(0.0), g[2], slotOk(ir, j0, u, 2u));
  d += select(vec4f(0.0), g[3], slotOk(ir, j0, u, 3u));
  if (RN > 4u) {
    d += select(vec4f(0.0), g[4], slotOk(ir, j0, u, 4u));
    d += select(vec4f(0.0), g[5], slotOk(ir, j0, u, 5u));
    d += select(vec4f(0.0), g[6], slotOk(ir, j0, u, 6u));
    d += select(vec4f(0.0), g[7], slotOk(ir, j0, u, 7u));
  }
  return NormAcc(acc.m, acc.l, d);
}

// (M, S, D) of each of the 4 rows, valid in lane u = 0.
fn normCombine(acc: NormAcc, t: u32, u: u32) -> NormAcc {
  lanesA[t] = acc.m;
  lanesB[t] = acc.l;
  lanesC[t] = acc.d;
  workgroupBarrier();
  var all = acc;
  if (u == 0u) {
    var mAll = vec4f(NEG);
    for (var w = 0u; w < TG; w++) { mAll = max(mAll, lanesA[t + w]); }
    var sAll = vec4f(0.0);
    var dAll = vec4f(0.0);
    for (var w = 0u; w < TG; w++) {
      sAll += lanesB[t + w] * exp(lanesA[t + w] - mAll);
      dAll += lanesC[t + w];
    }
    all = NormAcc(mAll, sAll, dAll);
  }
  return all;
}

struct RowNorms {
  m: vec4f,
  s: vec4f,
  logS: vec4f,
  d: vec4f,
}

fn rowNorms(ir: vec4u) -> RowNorms {
  let last = p.n - 1u;
  let n0 = norms[min(ir.x, last)];
  let n1 = norms[min(ir.y, last)];
  let n2 = norms[min(ir.z, last)];
  let n3 = norms[min(ir.w, last)];
  var r: RowNorms;
  r.m = vec4f(n0.x, n1.x, n2.x, n3.x);
  r.s = vec4f(n0.y, n1.y, n2.y, n3.y);
  r.logS = log(r.s);
  r.d = vec4f(n0.z, n1.z, n2.z, n3.z);
  return r;
}

struct StatsAcc {
  hA: vec4f,
  hB: vec4f,
  sq: vec4f,
  ex: vec4f,
  kl: vec4f,
}

fn statsStart() -> StatsAcc {
  return StatsAcc(vec4f(0.0), vec4f(0.0), vec4f(0.0), vec4f(0.0), vec4f(0.0));
}

fn statsAdd(acc: StatsAcc, mt: Micro, ir: vec4u, j0: u32, u: u32, nr: RowNorms) -> StatsAcc {
  var r = statsTerm(acc, mt.s[0], mt.g[0], slotOk(ir, j0, u, 0u), nr);
  if (RN > 1u) { r = statsTerm(r, mt.s[1], mt.g[1], slotOk(ir, j0, u, 1u), nr); }
  if (RN > 2u) {
    r = statsTerm(r, mt.s[2], mt.g[2], slotOk(ir, j0, u, 2u), nr);
    r = statsTerm(r, mt.s[3], mt.g[3], slotOk(ir, j0, u, 3u), nr);
  }
  if (RN > 4u) {
    r = statsTerm(r, mt.s[4], mt.g[4], slotOk(ir, j0, u, 4u), nr);
    r = statsTerm(r, mt.s[5], mt.g[5], slotOk(ir, j0, u, 5u), nr);
    r = statsTerm(r, mt.s[6], mt.g[6], slotOk(ir, j0, u, 6u), nr);
    r = statsTerm(r, mt.s[7], mt.g[7], slotOk(ir, j0, u, 7u), nr);
  }
  return r;
}

// One key slot's terms (s, g of the 4 rows; `ok`: allowed) added to the statistics.
fn statsTerm(acc: StatsAcc, s: vec4f, g: vec4f, ok: vec4<bool>, nr: RowNorms) -> StatsAcc {
  var r = acc;
  let la = s - nr.m - nr.logS;
  let a = select(vec4f(0.0), exp(s - nr.m) / nr.s, ok);
  let b = select(vec4f(0.0), g / nr.d, ok & (nr.d != vec4f(0.0)));  // all-zero normalizer: Â row 0
  let aPos = a > vec4f(0.0);
  r.hA -= select(vec4f(0.0), a * la, aPos);
  r.kl += select(vec4f(0.0), a * (la - log(max(b, vec4f(KL_FLOOR)))), aPos);
  r.hB -= select(vec4f(0.0), b * log(max(b, vec4f(KL_FLOOR))), b > vec4f(0.0));
  r.sq += (a - b) * (a - b);
  r.ex += a * a;
  return r;
}

// The 5 statistics of each of the 4 rows, valid in lane u = 0.
fn statsCombine(acc: StatsAcc, t: u32, u: u32) -> StatsAcc {
  lanesA[t] = acc.hA;
  lanesB[t] = acc.hB;
  lanesC[t] = acc.sq;
  lanesD[t] = acc.ex;
  lanesE[t] = acc.kl;
  workgroupBarrier();
  var all = acc;
  if (u == 0u) {
    all = statsStart();
    for (var w = 0u; w < TG; w++) {
      all.hA += lanesA[t + w];
      all.hB += lanesB[t + w];
      all.sq += lanesC[t + w];
      all.ex += lanesD[t + w];
      all.kl += lanesE[t + w];
    }
  }
  return all;
}
