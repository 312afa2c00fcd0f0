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
//                view's fromRaw reads instead of recomputing both products.
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
// Dispatch: normalizers, rowStats — ⌈n/BR⌉ workgroups over (x, y), index x + y·gridX;
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

// (s_ij, g_ij) of key j for the 4 rows ir into the raw buffer (rows and keys past n skipped)
fn writeRaw(ir: vec4u, j: u32, s: vec4f, g: vec4f) {
  if (j >= p.n) { return; }
  let e = 2u * (ir * vec4u(p.n) + vec4u(j));
  if (ir.x < p.n) { outBuf[e.x] = s.x; outBuf[e.x + 1u] = g.x; }
  if (ir.y < p.n) { outBuf[e.y] = s.y; outBuf[e.y + 1u] = g.y; }
  if (ir.z < p.n) { outBuf[e.z] = s.z; outBuf[e.z + 1u] = g.z; }
  if (ir.w < p.n) { outBuf[e.w] = s.w; outBuf[e.w + 1u] = g.w; }
}

@compute @workgroup_size(WG)
fn normalizers(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let i0 = rowTileStart(wid);
  if (i0 >= p.n) { return; }
  let gr = t / TG;
  let u = t - gr * TG;
  let ir = vec4u(i0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let rows = min(ir, vec4u(p.n - 1u));

  var acc = normStart();
  let kEnd = keyEnd(i0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    let mt = microTile(j0, t, rows);
    if (p.raw != 0u) {
      // written out per key slot and row (constant indices): a loop-indexed read of the micro-tile's
      // arrays is a gather from private memory on SwiftShader
      writeRaw(ir, j0 + u, mt.s[0], mt.g[0]);
      if (RN > 1u) { writeRaw(ir, j0 + u + TG, mt.s[1], mt.g[1]); }
      if (RN > 2u) {
        writeRaw(ir, j0 + u + 2u * TG, mt.s[2], mt.g[2]);
        writeRaw(ir, j0 + u + 3u * TG, mt.s[3], mt.g[3]);
      }
      if (RN > 4u) {
        writeRaw(ir, j0 + u + 4u * TG, mt.s[4], mt.g[4]);
        writeRaw(ir, j0 + u + 5u * TG, mt.s[5], mt.g[5]);
        writeRaw(ir, j0 + u + 6u * TG, mt.s[6], mt.g[6]);
        writeRaw(ir, j0 + u + 7u * TG, mt.s[7], mt.g[7]);
      }
    }
    acc = normAdd(acc, mt, ir, j0, u);
  }
  // each lane's partials to storage, combined by normPartCombine: no barrier and no workgroup memory
  // here (on SwiftShader a shader with a barrier pays ~0.2 ms per workgroup, reached or not)
  for (var r = 0u; r < 4u; r++) {
    if (ir[r] < p.n) { normPart[ir[r] * TG + u] = vec4f(acc.m[r], acc.l[r], acc.d[r], 0.0); }
  }
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
