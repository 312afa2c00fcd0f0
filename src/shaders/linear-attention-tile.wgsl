// linear-attention-tile.wgsl — pieces shared by the Performer kernels performer-bidirectional.wgsl
// and performer-causal.wgsl. Prepended by their dispatchers (src/gpu/performer-bidirectional.ts
// `performerSource`, also used by src/gpu/performer-causal.ts) after feature-map-common.wgsl and
// before the kernel: favorSource(this + kernel). Needs fm, fm_a, fm_phi, fm_phi_tile, FM_WG,
// FM_QUERY from feature-map-common.wgsl.
//
// Holds: the tile-shape override constants (DT, TILE, TJ, FQ; see the kernels' headers), the
// bindings of the output kernels (6 V, 10 state / workspace (read), 11 out (rw, n×d, then the n
// row normalizers); an entry
// point that does not use one leaves it out of its 'auto' layout), the linearised workgroup id,
// vec4 row loaders / stores (zeros / skipped past column d), the column tile of a workgroup
// (lt_col_tile: ⌈d/DT⌉ tiles of DT columns, first column c0), the 4×4 register block LtBlock
// (rows ti + a·TILE/4, a = 0..3, × columns c0 + 4·td .. +3 with ti = lid / (DT/4),
// td = lid % (DT/4)) with its FMA step and row-masked store, the V sub-tile loader and the
// φ(q)·state feature loop that bidir_out and causal_out share.

override DT: u32 = 64u;
override TILE: u32 = 64u;
override TJ: u32 = 16u;
override FQ: u32 = 16u;

@group(0) @binding(6) var<storage, read> lt_v: array<f32>;
@group(0) @binding(10) var<storage, read> lt_state_in: array<f32>;
@group(0) @binding(11) var<storage, read_write> lt_out: array<f32>;

var<workgroup> lt_z: array<f32, 64>;

/// Accumulators of one invocation: rows a = 0..3 of the register block, and one denominator
/// (or key-feature sum) per row.
struct LtBlock {
  a0: vec4<f32>,
  a1: vec4<f32>,
  a2: vec4<f32>,
  a3: vec4<f32>,
  den: vec4<f32>,
}

/// Row j of V (row-major, d columns), columns 4·c4 .. 4·c4+3 (zeros past d).
fn lt_v4(j: u32, c4: u32) -> vec4<f32> {
  let d = fm.d;
  let c = 4u * c4;
  let o = j * d + c;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = lt_v[o]; }
  if (c + 1u < d) { v.y = lt_v[o + 1u]; }
  if (c + 2u < d) { v.z = lt_v[o + 2u]; }
  if (c + 3u < d) { v.w = lt_v[o + 3u]; }
  return v;
}

/// lt_state_in[o .. o+3] for columns c .. c+3 of a d-column row (zeros past d).
fn lt_s4(o: u32, c: u32) -> vec4<f32> {
  let d = fm.d;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = lt_state_in[o]; }
  if (c + 1u < d) { v.y = lt_state_in[o + 1u]; }
  if (c + 2u < d) { v.z = lt_state_in[o + 2u]; }
  if (c + 3u < d) { v.w = lt_state_in[o + 3u]; }
  return v;
}

fn lt_store_out(o: u32, c: u32, v: vec4<f32>) {
  let d = fm.d;
  if (c < d) { lt_out[o] = v.x; }
  if (c + 1u < d) { lt_out[o + 1u] = v.y; }
  if (c + 2u < d) { lt_out[o + 2u] = v.z; }
  if (c + 3u < d) { lt_out[o + 3u] = v.w; }
}

/// fm_phi[o + a·s] for a = 0..3: the 4 rows (or features) of a register block.
fn lt_phi4(o: u32, s: u32) -> vec4<f32> {
  return vec4<f32>(fm_phi[o], fm_phi[o + s], fm_phi[o + 2u * s], fm_phi[o + 3u * s]);
}

/// Block row a += w[a] · x (a = 0..3).
fn lt_fma(b: ptr<function, LtBlock>, w: vec4<f32>, x: vec4<f32>) {
  (*b).a0 = (*b).a0 + w.x * x;
  (*b).a1 = (*b).a1 + w.y * x;
  (*b).a2 = (*b).a2 + w.z * x;
  (*b).a3 = (*b).a3 + w.w * x;
}

/// The column tile of workgroup index wid: (tile index wid / T, first column 64·(wid % T)),
/// T = ⌈d / DT⌉ column tiles of DT output columns (heads wider than DT: each column tile
/// recomputes its φ tiles; one pipeline serves every d).
fn lt_col_tile(wid: u32) -> vec2<u32> {
  let T = (fm.d + DT - 1u) / DT;
  return vec2<u32>(wid / T, (wid % T) * DT);
}

/// V sub-tile: rows js .. js+TJ−1 (zeros from row jend on), columns c0 .. c0+DT−1 →
/// fm_a[jl·(DT/4) + c4].
fn lt_load_v_tile(js: u32, jend: u32, c0: u32, lid: u32) {
  let qd = DT / 4u;
  for (var e = lid; e < TJ * qd; e += FM_WG) {
    let j = js + e / qd;
    var v = vec4<f32>(0.0);
    if (j < jend) {
      v = lt_v4(j, c0 / 4u + e % qd);
    }
    fm_a[e] = v;
  }
}

/// Query tile rows i0 .. i0+TILE−1 against an m'×(d+1) state at lt_state_in[soff ..] (S rows then
/// z), output columns c0 .. c0+DT−1: loop over feature steps of FQ features (features in a fixed
/// order), φ(Q) tile on the fly, returns a_r = Σ_f φ_if S_f (columns of the block) and
/// den = Σ_f φ_if z_f (the same in every column tile).
fn lt_query_state(i0: u32, soff: u32, c0: u32, lid: u32) -> LtBlock {
  let C = FQ / fm.nb;
  let d = fm.d;
  let qd = DT / 4u;
  let qr = TILE / 4u;
  let ti = lid / qd;                       // rows ti + a·qr
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let zoff = soff + fm.mp * d;

  var b = LtBlock(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var u0 = 0u; u0 < fm.nu; u0 += C) {
    fm_phi_tile(FM_QUERY, i0, u0, TILE, C, lid, 0u, FQ);    // fm_phi[il·FQ + l]
    for (var e = lid; e < FQ * qd; e += FM_WG) {             // state tile → fm_a[l·qd + c4]
      let l = e / qd;
      let col = u0 + l % C;
      var v = vec4<f32>(0.0);
      if (col < fm.nu) {
        let c = c0 + 4u * (e % qd);
        v = lt_s4(soff + ((l / C) * fm.nu + col) * d + c, c);
      }
      fm_a[e] = v;
    }
    if (lid < FQ) {
      let col = u0 + lid % C;
      var v = 0.0;
      if (col < fm.nu) {
        v = lt_state_in[zoff + (lid / C) * fm.nu + col];
      }
      lt_z[lid] = v;
    }
    workgroupBarrier();
    for (var l = 0u; l < FQ; l++) {
      let ph = lt_phi4(ti * FQ + l, qr * FQ);
      b.den = b.den + ph * lt_z[l];
      lt_fma(&b, ph, fm_a[l * qd + td]);
    }
  }
  return b;
}

/// a / den, or 0 when the normalizer is exactly 0 (every product φ(q_i)·φ(k_j) underflowed):
/// the all-zero-normalizer guard (see src/core/linear-attention.ts), never 0/0.
fn lt_div(a: vec4<f32>, den: f32) -> vec4<f32> {
  if (den == 0.0) {
    return vec4<f32>(0.0);
  }
  return a / den;
}

/// out rows i0 + ti + a·TILE/4 (those < n), columns c0 + 4·td .. +3: a_r / den[r] (0 if den = 0);
/// the invocations of column 0 (column tile 0, td = 0) also write den of their rows to
/// lt_out[n·d + row] (the output buffer holds n·d + n floats), from which the host counts the
/// all-zero normalizers.
fn lt_store_block(i0: u32, c0: u32, lid: u32, b: LtBlock) {
  let d = fm.d;
  let qd = DT / 4u;
  let qr = TILE / 4u;
  let c = c0 + 4u * (lid % qd);
  let r0 = i0 + lid / qd;
  let nd = fm.n * d;
  let dens = c == 0u;
  if (r0 < fm.n) { lt_store_out(r0 * d + c, c, lt_div(b.a0, b.den.x)); if (dens) { lt_out[nd + r0] = b.den.x; } }
  if (r0 + qr < fm.n) { lt_store_out((r0 + qr) * d + c, c, lt_div(b.a1, b.den.y)); if (dens) { lt_out[nd + r0 + qr] = b.den.y; } }
  if (r0 + 2u * qr < fm.n) { lt_store_out((r0 + 2u * qr) * d + c, c, lt_div(b.a2, b.den.z)); if (dens) { lt_out[nd + r0 + 2u * qr] = b.den.z; } }
  if (r0 + 3u * qr < fm.n) { lt_store_out((r0 + 3u * qr) * d + c, c, lt_div(b.a3, b.den.w)); if (dens) { lt_out[nd + r0 + 3u * qr] = b.den.w; } }
}
