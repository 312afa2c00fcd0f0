// Matrix view: block means of the exact attention matrix A, the linear-attention matrix Â and
// |A − Â| (ARCHITECTURE.md "Matrix view"; CPU twin core/matrix-view.ts). The tile code and
// bindings 0–4 come from attention-tile.wgsl, which the dispatcher prepends.
//
//   A_ij = exp(s_ij − M_i)/S_i,  Â_ij = g_ij / D_i  (0 where masked; norms from the
//   normalizers kernel of attention-row-stats.wgsl)
//   view[I, J] = (1 / (e_I e_J)) Σ_{i ∈ block I, j ∈ block J} (A_ij, Â_ij, |A_ij − Â_ij|),
//   blocks of b = p.block rows/columns, e_I = min(b, n − I·b) (partial last block).
//
// A workgroup owns a gc × gc group of cells (gc = ⌊BR/b⌋ when b ≤ BR, else 1), i.e. a square of
// span = gc·b rows × keys, computed in BR × BC tiles (BR = BC). gc > 1: the span is one tile and one
// thread per cell sums its b × b entries; gc = 1: thread r sums tile row r over all tiles of the
// cell, then the BR row partials are added in order; b = 1: each thread writes its micro-tile's
// cells directly (no workgroup round trip). Deterministic.
//
// Bindings: 0 params, 1 Q, 2 K, 3 φ(Q), 4 φ(K) (vec4 rows), 5 norms (n vec4f: M, S, D),
// 6 view (3·cells² f32: exact, approx, absDiff planes, row-major).
// Dispatch: (⌈cells/gc⌉, ⌈cells/gc⌉) workgroups, x = cell-group column, y = cell-group row;
// b = 1: (1, ⌈cells/gc⌉), each workgroup over all keys.

@group(0) @binding(5) var<storage, read> norms: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> view: array<f32>;

var<workgroup> ent: array<vec2f, BR * BC>; // (A, Â) of the current tile, 0 outside / masked
var<workgroup> partial: array<vec4f, BR>;

fn extent(I: u32) -> u32 {
  return min(p.block, p.n - I * p.block);
}

fn writeCell(I: u32, J: u32, sums: vec3f) {
  if (I >= p.cells || J >= p.cells) { return; }
  let mean = sums / f32(extent(I) * extent(J));
  let c = I * p.cells + J;
  let plane = p.cells * p.cells;
  view[c] = mean.x;
  view[plane + c] = mean.y;
  view[2u * plane + c] = mean.z;
}

struct ViewNorms {
  m: vec4f,
  s: vec4f,
  d: vec4f,
}

// A and Â of the 4 rows ir against tile key jj (s, g from the micro-tile): one entry per cell
// (b = 1) written straight to the view, else into the tile's entries for the cell sums.
fn viewSlot(
  sv: vec4f,
  gv: vec4f,
  jj: u32,
  ks: u32,
  keyBase: u32,
  keysAll: u32,
  rowOk: vec4<bool>,
  ir: vec4u,
  rl: vec4u,
  nr: ViewNorms,
) {
  let j = keyBase + ks + jj;
  let inside = rowOk & vec4<bool>(ks + jj < keysAll);
  var ok = inside;
  if (p.causal != 0u) { ok = ok & (vec4u(j) <= ir); }
  let a = select(vec4f(0.0), exp(sv - nr.m) / nr.s, ok);
  let ah = select(vec4f(0.0), gv / nr.d, ok & (nr.d != vec4f(0.0)));  // all-zero normalizer: Â row 0
  if (p.block == 1u) {
    // one entry per cell: the mean is the entry, written straight from the micro-tile
    if (inside.x) { writeCell(ir.x, j, vec3f(a.x, ah.x, abs(a.x - ah.x))); }
    if (inside.y) { writeCell(ir.y, j, vec3f(a.y, ah.y, abs(a.y - ah.y))); }
    if (inside.z) { writeCell(ir.z, j, vec3f(a.z, ah.z, abs(a.z - ah.z))); }
    if (inside.w) { writeCell(ir.w, j, vec3f(a.w, ah.w, abs(a.w - ah.w))); }
  } else {
    ent[rl.x * BC + jj] = vec2f(a.x, ah.x);
    ent[rl.y * BC + jj] = vec2f(a.y, ah.y);
    ent[rl.z * BC + jj] = vec2f(a.z, ah.z);
    ent[rl.w * BC + jj] = vec2f(a.w, ah.w);
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let b = p.block;
  let gc = p.gc;
  let span = gc * b;
  let rowBase = wid.y * span;
  let keyBase = wid.x * span;
  if (rowBase >= p.n || keyBase >= p.n) { return; }
  let rowsAll = min(span, p.n - rowBase);
  // b = 1: one workgroup per row band walks every key tile (dispatch x = 1), as the normalizers do
  var keysAll = min(span, p.n - keyBase);
  if (b == 1u) { keysAll = p.n - keyBase; }
  let gr = t / TG;
  let u = t - gr * TG;
  let last = p.n - 1u;

  var part = vec3f(0.0);
  for (var rs = 0u; rs < rowsAll; rs += BR) {
    for (var ks = 0u; ks < keysAll; ks += BC) {
      let rl = vec4u(4u * gr) + vec4u(0u, 1u, 2u, 3u); // tile-local rows
      let ir = vec4u(rowBase + rs) + rl;
      if (b != 1u) { workgroupBarrier(); } // the previous tile's entries are no longer read
      let mt = microTile(keyBase + ks, t, min(ir, vec4u(last)));

      let rowOk = (vec4u(rs) + rl) < vec4u(rowsAll);
      let n0 = norms[min(ir.x, last)];
      let n1 = norms[min(ir.y, last)];
      let n2 = norms[min(ir.z, last)];
      let n3 = norms[min(ir.w, last)];
      let m = vec4f(n0.x, n1.x, n2.x, n3.x);
      let s = vec4f(n0.y, n1.y, n2.y, n3.y);
      let d = vec4f(n0.z, n1.z, n2.z, n3.z);
      // key slots with constant indices (a loop-indexed read of the micro-tile is a gather on SwiftShader)
      let nrm = ViewNorms(m, s, d);
      viewSlot(mt.s[0], mt.g[0], u, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
      if (RN > 1u) { viewSlot(mt.s[1], mt.g[1], u + TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm); }
      if (RN > 2u) {
        viewSlot(mt.s[2], mt.g[2], u + 2u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
        viewSlot(mt.s[3], mt.g[3], u + 3u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
      }
      if (RN > 4u) {
        viewSlot(mt.s[4], mt.g[4], u + 4u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
        viewSlot(mt.s[5], mt.g[5], u + 5u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
        viewSlot(mt.s[6], mt.g[6], u + 6u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
        viewSlot(mt.s[7], mt.g[7], u + 7u * TG, ks, keyBase, keysAll, rowOk, ir, rl, nrm);
      }
      if (b == 1u) { continue; }
      workgroupBarrier();

      if (gc > 1u) {
        // One tile holds all gc × gc cells: a thread per cell.
        for (var c = t; c < gc * gc; c += WG) {
          let gi = c / gc;
          let gj = c - gi * gc;
          var sums = vec3f(0.0);
          for (var r = gi * b; r < min(gi * b + b, rowsAll); r++) {
            for (var jj = gj * b; jj < min(gj * b + b, keysAll); jj++) {
              let e = ent[r * BC + jj];
              sums += vec3f(e.x, e.y, abs(e.x - e.y));
            }
          }
          if (gi * b < rowsAll && gj * b < keysAll) {
            writeCell(wid.y * gc + gi, wid.x * gc + gj, sums);
          }
        }
      } else if (t < BR) {
        for (var jj = 0u; jj < BC; jj++) {
          let e = ent[t * BC + jj];
          part += vec3f(e.x, e.y, abs(e.x - e.y));
        }
      }
    }
  }

  if (gc == 1u) {
    workgroupBarrier();
    if (t < BR) { partial[t] = vec4f(part, 0.0); }
    workgroupBarrier();
    if (t == 0u) {
      var sums = vec3f(0.0);
      for (var r = 0u; r < BR; r++) { sums += partial[r].xyz; }
      writeCell(wid.y, wid.x, sums);
    }
  }
}

// fromRaw: the view from the (s_ij, g_ij) the normalizers kernel wrote with p.raw = 1 — the same
// formulas and means as above, no product recomputed. One invocation per cell (I, J): its entries
// row by row, keys in order (the CPU twin's order; b = 1: the entry itself, RAW_CELLS consecutive
// cells per invocation). Dispatch ⌈cells²/WG⌉ workgroups (b = 1: ⌈cells²/(RAW_CELLS·WG)⌉) over
// (x, y), index x + y·gridX.
@group(0) @binding(7) var<storage, read> rawSG: array<vec2f>;

// (A, Â, |A − Â|) of stored entry (i, j), with row i's normalizers nm (j allowed)
fn rawEntry(i: u32, j: u32, nm: vec4f) -> vec3f {
  let sg = rawSG[i * p.n + j];
  let a = exp(sg.x - nm.x) / nm.y;
  var ah = 0.0;
  if (nm.z != 0.0) { ah = sg.y / nm.z; }  // all-zero normalizer: Â row 0
  return vec3f(a, ah, abs(a - ah));
}

// cells per invocation when b = 1 (one cell per entry): on SwiftShader a workgroup's fixed cost is
// about that of its 64 entries, so each invocation takes RAW_CELLS consecutive cells
const RAW_CELLS: u32 = 16u;

@compute @workgroup_size(WG)
fn fromRaw(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let e = (wid.x + wid.y * p.gridX) * WG + t;
  let b = p.block;
  if (b == 1u) {
    // the entries themselves, without the block loops (they cost as much as the entry on SwiftShader)
    for (var x = 0u; x < RAW_CELLS; x++) {
      let c = e * RAW_CELLS + x;
      if (c >= p.cells * p.cells) { return; }
      let I = c / p.cells;
      let J = c - I * p.cells;
      var v = vec3f(0.0);
      if (p.causal == 0u || J <= I) { v = rawEntry(I, J, norms[I]); }
      writeCell(I, J, v);
    }
    return;
  }
  if (e >= p.cells * p.cells) { return; }
  let I = e / p.cells;
  let J = e - I * p.cells;
  let i1 = min(p.n, I * b + b);
  let j0 = J * b;
  let j1 = min(p.n, j0 + b);
  var sums = vec3f(0.0);
  for (var i = I * b; i < i1; i++) {
    var jEnd = j1;
    if (p.causal != 0u) { jEnd = min(j1, i + 1u); }  // masked entries are 0 (they count in the mean)
    let nm = norms[i];
    for (var j = j0; j < jEnd; j++) { sums += rawEntry(i, j, nm); }
  }
  writeCell(I, J, sums);
}
