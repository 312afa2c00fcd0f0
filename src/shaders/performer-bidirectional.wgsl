// performer-bidirectional.wgsl — bidirectional linear attention without materializing φ(Q), φ(K):
//   S = φ(K)ᵀ V (m'×d),  z = φ(K)ᵀ 1 (m'),  out_i = (φ(q_i)ᵀ S) / (φ(q_i)·z).
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, φ tiles computed on the fly
// by fm_project from Q/K/W read straight from storage; the stabilizer stats come from favor-features.wgsl passes
// that ran before), then linear-attention-tile.wgsl (the override constants below, bindings 6 V,
// 10 state (read), 11 out, the 4×4 register block helpers and the φ(q)·state loop of bidir_out).
// CPU twin: src/core/linear-attention.ts linearAttentionOutput (causal = false).
// Every entry point runs 256 invocations; workgroup ids are linearised id.x + id.y·num_workgroups.x.
//
// Tiling (override constants, two classes chosen by the dispatcher from d): DT = 64 output columns
// per workgroup for d ≤ 64, 128 beyond; heads wider than DT in T = ⌈d/DT⌉ column tiles (workgroup
// index wid → (tile wid / T, columns DT·(wid % T) ..), lt_col_tile; each column tile recomputes
// its φ tiles), TILE = 4096 / DT (features of a state tile, or query rows of an output tile),
// TJ = 16 rows per key sub-tile, FQ = 16 features per step of the output kernel. Each invocation
// owns a 4×4 register block: rows/features tf + a·TILE/4 (a = 0..3) × columns c0 + 4·td .. +3
// (tf = lid / (DT/4), td = lid % (DT/4)); V and state tiles sit in workgroup memory as vec4 rows,
// so each step is 4 broadcast φ loads + 1 vec4 load for 16 FMAs, and global accesses are
// contiguous across invocations. kv_reduce (and the causal kernels' causal_prefix, causal_gram)
// read no tile constant: one pipeline for both classes.
//
// Entry points:
//   kv_partials  per (feature tile of TILE features, key chunk p of `chunk` rows):
//                part[p·E + f·d + c] = Σ_{j∈p} φ(k_j)_f v_jc, part[p·E + m'·d + f] = Σ_{j∈p} φ(k_j)_f,
//                E = m'·(d+1); j in increasing order; the Σ φ entries by column tile 0. Also used by
//                the causal scan (chunk states).
//                Dispatch: nchunks · ceil(nu / (TILE/fm.nb)) · T. Bindings 0–5, 6 V (read), 7 part (rw).
//   kv_reduce    state[e] = Σ_{p = 0, 1, …, nchunks−1} part[p·E + e] (fixed order) for e < E.
//                Dispatch: ceil(E / 256). Bindings 0, 8 part (read), 9 state (rw).
//   bidir_out    per tile of TILE query rows: loop over feature steps of FQ features, φ(Q) tile on
//                the fly, out_ic = Σ_f φ_if S_fc / Σ_f φ_if z_f (features in a fixed order).
//                Dispatch: ceil(n / TILE) · T. Bindings 0–5, 10 state (read), 11 out (rw, n×d + n: outputs, then row normalizers).

@group(0) @binding(7) var<storage, read_write> pb_part: array<f32>;
@group(0) @binding(8) var<storage, read> pb_part_in: array<f32>;
@group(0) @binding(9) var<storage, read_write> pb_state: array<f32>;

fn pb_store_part(o: u32, c: u32, v: vec4<f32>) {
  let d = fm.d;
  if (c < d) { pb_part[o] = v.x; }
  if (c + 1u < d) { pb_part[o + 1u] = v.y; }
  if (c + 2u < d) { pb_part[o + 2u] = v.z; }
  if (c + 3u < d) { pb_part[o + 3u] = v.w; }
}

@compute @workgroup_size(256)
fn kv_partials(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let C = TILE / fm.nb;                    // u columns per tile
  let ftiles = (fm.nu + C - 1u) / C;
  let ct = lt_col_tile(wg_linear(id, nwg));
  let c0 = ct.y;                           // first output column of this column tile
  let wid = ct.x;
  let p = wid / ftiles;
  if (p >= fm.nchunks) {
    return;
  }
  let u0 = (wid % ftiles) * C;
  let d = fm.d;
  let qd = DT / 4u;                        // vec4 columns per tile row
  let qf = TILE / 4u;
  let tf = lid / qd;                       // features tf + a·qf
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let j0 = p * fm.chunk;
  let j1 = min(fm.n, j0 + fm.chunk);

  var b = LtBlock(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));  // den: Σ φ
  for (var js = j0; js < j1; js += TJ) {
    fm_phi_tile(FM_KEY, js, u0, TJ, C, lid, 0u, TILE);      // fm_phi[jl·TILE + l]
    lt_load_v_tile(js, j1, c0, lid);                         // V sub-tile → fm_a[jl·qd + c4]
    workgroupBarrier();
    for (var jl = 0u; jl < TJ; jl++) {
      let ph = lt_phi4(jl * TILE + tf, qf);
      lt_fma(&b, ph, fm_a[jl * qd + td]);
      b.den = b.den + ph;
    }
  }

  let base = p * fm.mp * (d + 1u);
  for (var a = 0u; a < 4u; a++) {
    let l = tf + a * qf;
    let cl = l % C;
    if (u0 + cl >= fm.nu) {
      continue;
    }
    let f = (l / C) * fm.nu + u0 + cl;
    var v = b.a0;
    if (a == 1u) { v = b.a1; }
    if (a == 2u) { v = b.a2; }
    if (a == 3u) { v = b.a3; }
    pb_store_part(base + f * d + c0 + 4u * td, c0 + 4u * td, v);
    if (c0 + td == 0u) {
      pb_part[base + fm.mp * d + f] = b.den[a];
    }
  }
}

@compute @workgroup_size(256)
fn kv_reduce(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let e = wg_linear(id, nwg) * FM_WG + lid;
  let E = fm.mp * (fm.d + 1u);
  if (e >= E) {
    return;
  }
  var s = 0.0;
  for (var p = 0u; p < fm.nchunks; p++) {
    s = s + pb_part_in[p * E + e];
  }
  pb_state[e] = s;
}

@compute @workgroup_size(256)
fn bidir_out(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let ct = lt_col_tile(wg_linear(id, nwg));
  let i0 = ct.x * TILE;
  if (i0 >= fm.n) {
    return;
  }
  lt_store_block(i0, ct.y, lid, lt_query_state(i0, 0u, ct.y, lid));
}
