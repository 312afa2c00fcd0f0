// Per-row statistics of exact vs approximate attention on a list of query rows (cost O(R·n·(d + m')),
// memory O(R)); the tile code and bindings 0–4 come from attention-tile.wgsl, the row reductions and
// bindings 5–7 from attention-row-reduce.wgsl, which the dispatcher prepends in that order. The
// analyses' sweeps run it once per variant (map, W, stabilizer) of one problem.
//
// With s_ij = q_i·k_j/√d, g_ij = φ(q_i)·φ(k_j), allowed keys j < n (causal: j ≤ i), for the R = p.rowCount
// listed rows r_t = rowList[t] (distinct):
//   listNormalizers  norms[r_t] = (M, S, D, 0):  M = max_j s, S = Σ_j exp(s − M), D = Σ_j g
//                    (as `normalizers` of attention-row-stats.wgsl, for the listed rows only; its
//                    `fullRows` reads the same buffer)
//   listStats        with A_j = exp(s_j − M)/S, Â_j = g_j / D (0 when D = 0), log A_j = s_j − M − log S:
//                    out[base + k·R + t], k = 0 … 4:  H(A_r) = −Σ_{A>0} A log A,  H(Â_r) = −Σ_{Â>0} Â log Â,
//                    Σ (A − Â)²,  Σ A²,  KL(A_r ‖ Â_r) = Σ_{A>0} A (log A − log max(Â, 1e-30))
//                    (CPU twin: core/analysis-backend.ts rowListStats on exactRowsOf / approxRowsOf)
//
// Bindings: 0 params (attention-tile.wgsl; rowCount = R, gridX), 1 Q, 2 K, 3 φ(Q), 4 φ(K) (vec4
// rows, all n rows), 5 norms (n vec4f), 6 out (f32), 7 row list (R u32), 8 base (x: first float of
// this variant's statistics in out).
// Thread mapping: a workgroup takes BR consecutive list slots (4 per row group gr = t / TG) against
// all keys in tiles of BC; key slot u = t % TG accumulates keys u + TG·x; the TG partials of a row are
// combined by lane u = 0 in a fixed order (deterministic).
// Dispatch: ⌈R/BR⌉ workgroups over (x, y), index x + y·gridX.

@group(0) @binding(8) var<uniform> base: vec4u;

fn slotStart(wid: vec3u) -> u32 {
  return (wid.x + wid.y * p.gridX) * BR;
}

// Last key any row of the tile may attend to, + 1 (read from the row list: uniform).
fn listKeyEnd(slot0: u32) -> u32 {
  if (p.causal == 0u) { return p.n; }
  var mx = 0u;
  let last = min(slot0 + BR, p.rowCount);
  for (var s = slot0; s < last; s++) { mx = max(mx, rowList[s]); }
  return min(p.n, mx + 1u);
}

fn listRow(slot: u32) -> u32 {
  return rowList[min(slot, p.rowCount - 1u)];
}

@compute @workgroup_size(WG)
fn listNormalizers(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let slot0 = slotStart(wid);
  if (slot0 >= p.rowCount) { return; }
  if (t < BR) { tileRows[t] = listRow(slot0 + t); }
  let gr = t / TG;
  let u = t - gr * TG;
  let slots = vec4u(slot0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ir = vec4u(listRow(slots.x), listRow(slots.y), listRow(slots.z), listRow(slots.w));

  var acc = normStart();
  let kEnd = listKeyEnd(slot0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    acc = normAdd(acc, microTile(j0, t), ir, j0, u);
  }
  let all = normCombine(acc, t, u);
  if (u == 0u) {
    for (var r = 0u; r < 4u; r++) {
      if (slots[r] < p.rowCount) { norms[ir[r]] = vec4f(all.m[r], all.l[r], all.d[r], 0.0); }
    }
  }
}

@compute @workgroup_size(WG)
fn listStats(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let slot0 = slotStart(wid);
  if (slot0 >= p.rowCount) { return; }
  if (t < BR) { tileRows[t] = listRow(slot0 + t); }
  let gr = t / TG;
  let u = t - gr * TG;
  let slots = vec4u(slot0 + 4u * gr) + vec4u(0u, 1u, 2u, 3u);
  let ir = vec4u(listRow(slots.x), listRow(slots.y), listRow(slots.z), listRow(slots.w));
  let nr = rowNorms(ir);
  var acc = statsStart();
  let kEnd = listKeyEnd(slot0);
  for (var j0 = 0u; j0 < kEnd; j0 += BC) {
    acc = statsAdd(acc, microTile(j0, t), ir, j0, u, nr);
  }
  let all = statsCombine(acc, t, u);
  if (u == 0u) {
    let R = p.rowCount;
    for (var r = 0u; r < 4u; r++) {
      let s = slots[r];
      if (s < R) {
        outBuf[base.x + s] = all.hA[r];
        outBuf[base.x + R + s] = all.hB[r];
        outBuf[base.x + 2u * R + s] = all.sq[r];
        outBuf[base.x + 3u * R + s] = all.ex[r];
        outBuf[base.x + 4u * R + s] = all.kl[r];
      }
    }
  }
}
