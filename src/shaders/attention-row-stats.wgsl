// Dense statistics over full attention rows (cost O(n²(d + m')), memory O(n)); the tile code and
// bindings 0–4 come from attention-tile.wgsl, the row reductions and bindings 5–7 from
// attention-row-reduce.wgsl, which the dispatcher prepends in that order.
//
// With s_ij = q_i·k_j/√d, g_ij = φ(q_i)·φ(k_j), allowed keys j < n (causal: j ≤ i):
//   normalizers  norms_i = (M_i, S_i, D_i, 0):  M_i = max_j s_ij,  S_i = Σ_j exp(s_ij − M_i),
//                D_i = Σ_j g_ij — exact softmax and linear-attention row normalizers.
//                Online over key tiles (max rescaling as in the fused kernel); the per-thread
//                partials go to normPart and normPartCombine combines the TG of a row in a fixed order. With p.raw = 1 it also
//                writes raw[2(i·n + j)] = (s_ij, g_ij) into binding 6 for every key it visits (all
//                j < n; causal: j < the tile's end, a superset of the allowed keys), which the matrix
//                view's fromRaw reads instead of recomputing both products. With p.raw = 2 the s_ij
//                in raw and the (m, ℓ) in normPart are kept (the same Q, K and mask as the job before,
//                src/gpu/exact-reuse.ts): it forms and writes only g_ij and D.
//   rowStats     with A_ij = exp(s_ij − M_i)/S_i, Â_ij = g_ij / D_i (log A_ij = s_ij − M_i − log S_i):
//                H(A_i) = −Σ_{A>0} A log A, H(Â_i) = −Σ_{Â>0} Â log Â, Σ (A − Â)², Σ A²,
//                KL_i = Σ_{A>0} A (log A − log max(Â, 1e-30))          (core/matrix-view.ts)
//                → stats[k·n + i], k = 0 … 4 in that order.
//   fullRows     rows[s·n + j] = A_{r_s, j},  rows[(R + s)·n + j] = Â_{r_s, j}  for the R requested
//                rows r_s (masked entries 0).
//
// Bindings: 0 params, 1 Q, 2 K, 3 φ(Q), 4 φ(K) (vec4 rows), 5 norms (n vec4f; written by
// normPartCombine, read by the others), 6 stats (5n f32) / rows (2Rn f32), 7 row list (R u32),
// 10 the normalizers' lane partials (n·TG vec4f).
// Dispatch: normalizers (RR = 8: BR = 64), rowStats — ⌈n/BR⌉ workgroups over (x, y), index x + y·gridX;
//           normPartCombine — ⌈n/WG⌉ workgroups over (x, y);
//           fullRows — (⌈n/BC⌉ key tiles, ⌈R/BR⌉ row tiles).

// the normalizers' per-lane partials (m, l, d, 0) of each row: normPart[i·TG + u]
@group(0) @binding(10) var<storage, read_write> normPart: array<vec4f>;

fn rowTileStart(wid: vec3u) -> u32 {
  return (wid.x + wid.y * p.gridX) * BR;
}

fn keyEnd(i0: u32) -> u32 {
  if (p.causal != 0u) { return min(p.n, i0 + BR); }
  return p.n;
}

// One of the raw pair (s_ij at offset 0, g_ij at 1) of key j for the 4 rows ir (rows and keys past n
// skipped).
fn writeRaw(ir: vec4u, j: u32, v: vec4f, off: u32) {
  if (j >= p.n) { return; }
  let e = 2u * (ir * vec4u(p.n) + vec4u(j)) + vec4u(off);
  if (ir.x < p.n) { outBuf[e.x] = v.x; }
  if (ir.y < p.n) { outBuf[e.y] = v.y; }
  if (ir.z < p.n) { outBuf[e.z] = v.z; }
  if (ir.w < p.n) { outBuf[e.w] = v.w; }
}

// writeRaw for the RN key slots j + TG·x of one micro-tile half, written out per slot (constant
// indices): a loop-indexed read of a private array is a gather from memory on SwiftShader.
fn writeRawSlots(ir: vec4u, j: u32, v: array<vec4f, 8>, off: u32) {
  writeRaw(ir, j, v[0], off);
  if (RN > 1u) { writeRaw(ir, j + TG, v[1], off); }
  if (RN > 2u) {
    writeRaw(ir, j + 2u * TG, v[2], off);
    writeRaw(ir, j + 3u * TG, v[3], off);
  }
  if (RN > 4u) {
    writeRaw(ir, j + 4u * TG, v[4], off);
    writeRaw(ir, j + 5u * TG, v[5], off);
    writeRaw(ir, j + 6u * TG, v[6], off);
    writeRaw(ir, j + 7u * TG, v[7], off);
  }
}

// The normalizers' products: the thread's 8 rows ra, rb (4 each) × the RN = 8 keys j0 + u + TG·x,
// [0 … 7] for ra, [8 … 15] for rb, in one pass over the columns, so each key vec4 read serves 8 rows:
// 8 row + 8 key loads per 64 four-wide dot products of a column, against 4 + 8 per 32 in microTile
// (on SwiftShader an indexed vec4 read costs about 4.5 FMAs: bench:primitives). Columns in order,
// then × k (1/√d for the scores, 1 for the kernel values: exact), so every product has the bits
// microTile gives it.
fn dots8(feat: bool, j0: u32, u: u32, ra: vec4u, rb: vec4u, k: f32) -> array<vec4f, 16> {
  let width = widthOf(feat);
  let oa = ra * vec4u(width);
  let ob = rb * vec4u(width);
  let ko = keyOffsets(j0, u, width);
  // named accumulators, not a loop-indexed array (see dots in attention-tile.wgsl)
  var a0 = vec4f(0.0);
  var a1 = vec4f(0.0);
  var a2 = vec4f(0.0);
  var a3 = vec4f(0.0);
  var a4 = vec4f(0.0);
  var a5 = vec4f(0.0);
  var a6 = vec4f(0.0);
  var a7 = vec4f(0.0);
  var b0 = vec4f(0.0);
  var b1 = vec4f(0.0);
  var b2 = vec4f(0.0);
  var b3 = vec4f(0.0);
  var b4 = vec4f(0.0);
  var b5 = vec4f(0.0);
  var b6 = vec4f(0.0);
  var b7 = vec4f(0.0);
  for (var c = 0u; c < width; c++) {
    let x0 = rowAt(feat, oa.x + c);
    let x1 = rowAt(feat, oa.y + c);
    let x2 = rowAt(feat, oa.z + c);
    let x3 = rowAt(feat, oa.w + c);
    let y0 = rowAt(feat, ob.x + c);
    let y1 = rowAt(feat, ob.y + c);
    let y2 = rowAt(feat, ob.z + c);
    let y3 = rowAt(feat, ob.w + c);
    let c0 = keyAt(feat, ko[0] + c);
    a0 += dot4(x0, x1, x2, x3, c0);
    b0 += dot4(y0, y1, y2, y3, c0);
    let c1 = keyAt(feat, ko[1] + c);
    a1 += dot4(x0, x1, x2, x3, c1);
    b1 += dot4(y0, y1, y2, y3, c1);
    let c2 = keyAt(feat, ko[2] + c);
    a2 += dot4(x0, x1, x2, x3, c2);
    b2 += dot4(y0, y1, y2, y3, c2);
    let c3 = keyAt(feat, ko[3] + c);
    a3 += dot4(x0, x1, x2, x3, c3);
    b3 += dot4(y0, y1, y2, y3, c3);
    let c4 = keyAt(feat, ko[4] + c);
    a4 += dot4(x0, x1, x2, x3, c4);
    b4 += dot4(y0, y1, y2, y3, c4);
    let c5 = keyAt(feat, ko[5] + c);
    a5 += dot4(x0, x1, x2, x3, c5);
    b5 += dot4(y0, y1, y2, y3, c5);
    let c6 = keyAt(feat, ko[6] + c);
    a6 += dot4(x0, x1, x2, x3, c6);
    b6 += dot4(y0, y1, y2, y3, c6);
    let c7 = keyAt(feat, ko[7] + c);
    a7 += dot4(x0, x1, x2, x3, c7);
    b7 += dot4(y0, y1, y2, y3, c7);
  }
  return array<vec4f, 16>(
    a0 * k, a1 * k, a2 * k, a3 * k, a4 * k, a5 * k, a6 * k, a7 * k,
    b0 * k, b1 * k, b2 * k, b3 * k, b4 * k, b5 * k, b6 * k, b7 * k,
  );
}

// The ra half ([0 … 7]) and the rb half ([8 … 15]) of dots8's products (constant indices).
fn rowsA(v: array<vec4f, 16>) -> array<vec4f, 8> {
  return array<vec4f, 8>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}

fn rowsB(v: array<vec4f, 16>) -> array<vec4f, 8> {
  return array<vec4f, 8>(v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15]);
}

// Dispatched with RR = 8 and RN = 8 (BR = 8·RG rows per workgroup): thread t holds rows
// i0 + 8·gr … + 7 and key slot u. The scores are formed and folded into (M, ℓ) first, then the
// kernel values into D, so only one half of the products is live at a time.
@compute @workgroup_size(WG)
fn normalizers(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i0 = rowTileStart(wid);
  if (i0 >= p.n) { return; }
  let gr = t / TG;
  let u = t - gr * TG;
  let ia = vec4u(i0 + 8u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ib = ia + vec4u(4u);
  let last = vec4u(p.n - 1u);
  let ra = min(ia, last);
  let rb = min(ib, last);

  var accA = normStart();
  var accB = normStart();
  let kEnd = keyEnd(i0);
  // p.raw = 2: the scores of these Q, K are in raw and their (m, ℓ) partials in normPart already
  // (the previous job's, src/gpu/exact-reuse.ts): only the kernel values are formed
  let keepScores = p.raw == 2u;
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    if (!keepScores) {
      let s = dots8(false, j0, u, ra, rb, p.scale);
      let sa = rowsA(s);
      let sb = rowsB(s);
      accA = normAddExact(accA, sa, ia, j0, u);
      accB = normAddExact(accB, sb, ib, j0, u);
      if (p.raw != 0u) {
        writeRawSlots(ia, j0 + u, sa, 0u);
        writeRawSlots(ib, j0 + u, sb, 0u);
      }
    }
    let g = dots8(true, j0, u, ra, rb, 1.0);
    let ga = rowsA(g);
    let gb = rowsB(g);
    accA = normAddLinear(accA, ga, ia, j0, u);
    accB = normAddLinear(accB, gb, ib, j0, u);
    if (p.raw != 0u) {
      writeRawSlots(ia, j0 + u, ga, 1u);
      writeRawSlots(ib, j0 + u, gb, 1u);
    }
  }
  // each lane's partials to storage, combined by normPartCombine: no barrier and no workgroup memory
  // here (on SwiftShader a shader with a barrier pays ~0.2 ms per workgroup, reached or not)
  for (var r = 0u; r < 4u; r++) {
    if (ia[r] < p.n) { normPart[ia[r] * TG + u] = lanePartial(ia[r] * TG + u, accA, r, keepScores); }
    if (ib[r] < p.n) { normPart[ib[r] * TG + u] = lanePartial(ib[r] * TG + u, accB, r, keepScores); }
  }
}

// Row r's (m, ℓ, D, 0) of this lane; with the scores kept, (m, ℓ) are the ones already at slot e.
fn lanePartial(e: u32, acc: NormAcc, r: u32, keepScores: bool) -> vec4f {
  if (keepScores) {
    let old = normPart[e];
    return vec4f(old.x, old.y, acc.d[r], 0.0);
  }
  return vec4f(acc.m[r], acc.l[r], acc.d[r], 0.0);
}

// norms_i from the TG lanes' partials of row i, in normCombine's fixed order (same operations, so
// the same bits): M = max_w m_w, S = Σ_w l_w·exp(m_w − M), D = Σ_w d_w. One thread per row;
// dispatch ⌈n/WG⌉ workgroups over (x, y).
@compute @workgroup_size(WG)
fn normPartCombine(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) t: u32) {
  let i = (wid.x + wid.y * nwg.x) * WG + t;
  if (i >= p.n) { return; }
  var mAll = NEG;
  for (var w = 0u; w < TG; w++) { mAll = max(mAll, normPart[i * TG + w].x); }
  var sAll = 0.0;
  var dAll = 0.0;
  for (var w = 0u; w < TG; w++) {
    let e = normPart[i * TG + w];
    sAll += e.y * exp(e.x - mAll);
    dAll += e.z;
  }
  norms[i] = vec4f(mAll, sAll, dAll, 0.0);
}

@compute @workgroup_size(WG)
fn rowStats(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i0 = rowTileStart(wid);
  if (i0 >= p.n) { return; }
  let gr = t / TG;
  let u = t - gr * TG;
  let ir = vec4u(i0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let rows = min(ir, vec4u(p.n - 1u));
  let nr = rowNorms(ir);

  var acc = statsStart();
  let kEnd = keyEnd(i0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    acc = statsAdd(acc, microTile(j0, t, rows), ir, j0, u, nr);
  }
  let all = statsCombine(acc, t, u);
  if (u == 0u) {
    for (var r = 0u; r < 4u; r++) {
      let i = ir[r];
      if (i < p.n) {
        outBuf[i] = all.hA[r];
        outBuf[p.n + i] = all.hB[r];
        outBuf[2u * p.n + i] = all.sq[r];
        outBuf[3u * p.n + i] = all.ex[r];
        outBuf[4u * p.n + i] = all.kl[r];
      }
    }
  }
}

@compute @workgroup_size(WG)
fn fullRows(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let j0 = wid.x * BC;
  let slot0 = wid.y * BR;
  if (j0 >= p.n || slot0 >= p.rowCount) { return; }
  let gr = t / TG;
  let u = t - gr * TG;
  let slots = vec4u(slot0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ir = vec4u(
    rowList[min(slots.x, p.rowCount - 1u)],
    rowList[min(slots.y, p.rowCount - 1u)],
    rowList[min(slots.z, p.rowCount - 1u)],
    rowList[min(slots.w, p.rowCount - 1u)],
  );
  let nr = rowNorms(ir);
  let mt = microTile(j0, t, ir);
  // key slots with constant indices (see attention-row-reduce.wgsl slotOk)
  writeFullRows(slots, ir, nr, j0 + u, mt.s[0], mt.g[0]);
  if (RN > 1u) { writeFullRows(slots, ir, nr, j0 + u + TG, mt.s[1], mt.g[1]); }
  if (RN > 2u) {
    writeFullRows(slots, ir, nr, j0 + u + 2u * TG, mt.s[2], mt.g[2]);
    writeFullRows(slots, ir, nr, j0 + u + 3u * TG, mt.s[3], mt.g[3]);
  }
  if (RN > 4u) {
    writeFullRows(slots, ir, nr, j0 + u + 4u * TG, mt.s[4], mt.g[4]);
    writeFullRows(slots, ir, nr, j0 + u + 5u * TG, mt.s[5], mt.g[5]);
    writeFullRows(slots, ir, nr, j0 + u + 6u * TG, mt.s[6], mt.g[6]);
    writeFullRows(slots, ir, nr, j0 + u + 7u * TG, mt.s[7], mt.g[7]);
  }
}

// A and Â of key j for the 4 requested rows ir (slots: their places in the row list; past it: none)
fn writeFullRows(slots: vec4u, ir: vec4u, nr: RowNorms, j: u32, s: vec4f, g: vec4f) {
  if (j >= p.n) { return; }
  let ok = allowed(ir, j);
  let a = select(vec4f(0.0), exp(s - nr.m) / nr.s, ok);
  let b = select(vec4f(0.0), g / nr.d, ok & (nr.d != vec4f(0.0)));  // all-zero normalizer: Â row 0
  let planeB = p.rowCount * p.n;
  let live = slots < vec4u(p.rowCount);
  let e = slots * vec4u(p.n) + vec4u(j);
  if (live.x) { outBuf[e.x] = a.x; outBuf[planeB + e.x] = b.x; }
  if (live.y) { outBuf[e.y] = a.y; outBuf[planeB + e.y] = b.y; }
  if (live.z) { outBuf[e.z] = a.z; outBuf[planeB + e.z] = b.z; }
  if (live.w) { outBuf[e.w] = a.w; outBuf[planeB + e.w] = b.w; }
}

// exactFromRaw (with the raw (s_ij, g_ij) of normalizers, p.raw = 1): the exact output
// out_i = Σ_{allowed j} exp(s_ij − M_i) v_j / S_i, n×d row-major into binding 6, without recomputing
// the scores. One invocation per row and group of up to 4 vec4 columns of V (p.rowCount groups;
// exp once per entry and group); keys in order. Bindings 8 raw (n² vec2f), 9 V (vec4 rows, p.d4).
// Dispatch ⌈n·groups/WG⌉ workgroups over (x, y), index x + y·gridX.
@group(0) @binding(8) var<storage, read> rawIn: array<vec2f>;
@group(0) @binding(9) var<storage, read> vRows: array<vec4f>;

@compute @workgroup_size(WG)
fn exactFromRaw(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let groups = p.rowCount;
  let e = (wid.x + wid.y * p.gridX) * WG + t;
  if (e >= p.n * groups) { return; }
  let i = e / groups;
  let c0 = (e - i * groups) * 4u;
  let nm = norms[i];
  var jEnd = p.n;
  if (p.causal != 0u) { jEnd = i + 1u; }
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  let d4 = p.d4;
  for (var j = 0u; j < jEnd; j++) {
    let w = exp(rawIn[i * p.n + j].x - nm.x);
    let o = j * d4 + c0;
    acc0 += w * vRows[o];
    if (c0 + 1u < d4) { acc1 += w * vRows[o + 1u]; }
    if (c0 + 2u < d4) { acc2 += w * vRows[o + 2u]; }
    if (c0 + 3u < d4) { acc3 += w * vRows[o + 3u]; }
  }
  let d = p.d;
  let accs = array<vec4f, 4>(acc0 / nm.y, acc1 / nm.y, acc2 / nm.y, acc3 / nm.y);
  for (var x = 0u; x < 4u; x++) {
    for (var k = 0u; k < 4u; k++) {
      let col = (c0 + x) * 4u + k;
      if (c0 + x < d4 && col < d) { outBuf[i * d + col] = accs[x][k]; }
    }
  }
}

// rowStatsFromRaw (with the raw (s_ij, g_ij) of normalizers): rowStats' five statistics of row i
// from the entries the normalizers wrote, not recomputed — one invocation per row, 4 keys at a time
// through statsTerm (attention-row-reduce.wgsl; lane k sums keys ≡ k mod 4, the lanes added at the
// end) → outBuf[k·n + i]. Dispatch ⌈n/WG⌉ workgroups over (x, y), index x + y·gridX.
@compute @workgroup_size(WG)
fn rowStatsFromRaw(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i = (wid.x + wid.y * p.gridX) * WG + t;
  if (i >= p.n) { return; }
  let nr = rowNorms(vec4u(i));
  var jEnd = p.n;
  if (p.causal != 0u) { jEnd = i + 1u; }
  let base = i * p.n;
  let last = jEnd - 1u;
  var acc = statsStart();
  for (var j = 0u; j < jEnd; j += 4u) {
    let jj = min(vec4u(j) + vec4u(0u, 1u, 2u, 3u), vec4u(last));
    let e0 = rawIn[base + jj.x];
    let e1 = rawIn[base + jj.y];
    let e2 = rawIn[base + jj.z];
    let e3 = rawIn[base + jj.w];
    let ok = (vec4u(j) + vec4u(0u, 1u, 2u, 3u)) < vec4u(jEnd);
    acc = statsTerm(acc, vec4f(e0.x, e1.x, e2.x, e3.x), vec4f(e0.y, e1.y, e2.y, e3.y), ok, nr);
  }
  let one = vec4f(1.0);
  outBuf[i] = dot(acc.hA, one);
  outBuf[p.n + i] = dot(acc.hB, one);
  outBuf[2u * p.n + i] = dot(acc.sq, one);
  outBuf[3u * p.n + i] = dot(acc.ex, one);
  outBuf[4u * p.n + i] = dot(acc.kl, one);
}
