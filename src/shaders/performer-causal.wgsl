// performer-causal.wgsl — causal linear attention by a parallel chunked scan (no thread walks all
// n rows). With chunks of C rows (C = `chunk`, a multiple of 64), chunk p = rows pC .. pC+C−1:
//   (1) chunk states  (S_p, z_p) = Σ_{j∈p} (φ(k_j) v_jᵀ, φ(k_j))        [kv_partials of
//       performer-bidirectional.wgsl, written into `work` at p·E, E = m'·(d+1)]
//   (2) causal_prefix  exclusive prefix over chunks, in place: P_p = Σ_{p' < p} (S_p', z_p');
//       parallel over the E state entries, serial over the nchunks chunks only.
//   (3) causal_gram    G_p = tril(φ(Q_p) φ(K_p)ᵀ) (C×C per chunk, φ on the fly), written into
//       `work` at goff + i·C + (j − pC) for global row i; entries j > i are 0.
//   (4) causal_out     out_i = [φ(q_i)ᵀ S_prefix(p) + Σ_{pC ≤ j ≤ i} G_ij v_j]
//                            / [φ(q_i)·z_prefix(p) + Σ_{pC ≤ j ≤ i} G_ij].
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, φ tiles on the fly), then
// linear-attention-tile.wgsl (override constants DT, TILE, TJ, FQ; bindings 6 V, 10 read view of
// `work`, 11 out; register-block helpers and the φ(q)·state loop shared with bidir_out).
// CPU twin: src/core/linear-attention.ts linearAttentionOutput(qf, kf, v, true).
// Every entry point runs 256 invocations; workgroup ids are linearised id.x + id.y·num_workgroups.x.
// Tiling of causal_out as bidir_out (DT = 64 or 128 columns, column tiles of DT for wider heads,
// TILE = 4096/DT query rows, FQ features per step, TJ keys per sub-tile of the intra-chunk part; 4×4 register
// blocks: rows ti + a·TILE/4 × columns c0 + 4·td .. +3, V / state tiles as vec4 rows in workgroup
// memory; every column tile forms the whole denominator, column tile 0 writes it); causal_gram uses 64×64 G
// tiles (4×4 per invocation: rows ti + 16x, keys tj + 16y) and 8 features per step.
//
// FmParams: chunk = C, nchunks, a0 = goff (float offset of G in `work`).
// Entry points and bindings:
//   causal_prefix  Dispatch ceil(E / 256).                           0, 12 work (rw)
//   causal_gram    Dispatch nchunks · T(T+1)/2, T = C / 64.          0–5, 12 work (rw)
//   causal_out     Dispatch ceil(n / TILE) · ⌈d/DT⌉.                          0–5, 6 V, 10 work (read), 11 out (n×d + n: outputs, then row normalizers)

@group(0) @binding(12) var<storage, read_write> pc_work: array<f32>;

const GT: u32 = 64u;       // G tile side
const GF: u32 = 8u;        // features per step of causal_gram
const GS: u32 = 9u;        // padded φ row stride in causal_gram
const GK_OFF: u32 = 576u;  // φ(K) rows start at tile row 64: offset 64 × GS in fm_phi

@compute @workgroup_size(256)
fn causal_prefix(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
  let e = wg_linear(id, nwg) * FM_WG + lid;
  let E = fm.mp * (fm.d + 1u);
  if (e >= E) {
    return;
  }
  var run = 0.0;
  for (var p = 0u; p < fm.nchunks; p++) {
    let t = pc_work[p * E + e];
    pc_work[p * E + e] = run;
    run = run + t;
  }
}

@compute @workgroup_size(256)
fn causal_gram(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let T = fm.chunk / GT;
  let pairs = T * (T + 1u) / 2u;
  let wid = wg_linear(id, nwg);
  let p = wid / pairs;
  if (p >= fm.nchunks) {
    return;
  }
  // pair index t → (a, b) with b ≤ a, row-major over the lower triangle
  let t = wid % pairs;
  var a = 0u;
  loop {
    if ((a + 1u) * (a + 2u) / 2u > t) {
      break;
    }
    a++;
  }
  let b = t - a * (a + 1u) / 2u;
  let cs = p * fm.chunk;
  let i0 = cs + a * GT;
  let j0 = cs + b * GT;
  if (i0 >= fm.n) {
    return;
  }
  let C = GF / fm.nb;
  let ti = lid / 16u;
  let tj = lid % 16u;
  var acc: array<f32, 16>;
  for (var u0 = 0u; u0 < fm.nu; u0 += C) {
    // one 128-row tile: query rows i0.. (tile rows 0..63), key rows j0.. (tile rows 64..127)
    fm_phi_tile2(FmRows(FM_QUERY, i0, GT, FM_KEY, j0), u0, 2u * GT, C, lid, 0u, GS);
    workgroupBarrier();
    for (var l = 0u; l < GF; l++) {
      var kv: array<f32, 4>;
      for (var y = 0u; y < 4u; y++) {
        kv[y] = fm_phi[GK_OFF + (tj + y * 16u) * GS + l];
      }
      for (var x = 0u; x < 4u; x++) {
        let qv = fm_phi[(ti + x * 16u) * GS + l];
        for (var y = 0u; y < 4u; y++) {
          acc[x * 4u + y] = acc[x * 4u + y] + qv * kv[y];
        }
      }
    }
  }
  let goff = fm.a0;
  for (var x = 0u; x < 4u; x++) {
    let i = i0 + ti + x * 16u;
    if (i >= fm.n) {
      continue;
    }
    for (var y = 0u; y < 4u; y++) {
      let j = j0 + tj + y * 16u;
      pc_work[goff + i * fm.chunk + (j - cs)] = select(0.0, acc[x * 4u + y], j <= i);
    }
  }
}

@compute @workgroup_size(256)
fn causal_out(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let ct = lt_col_tile(wg_linear(id, nwg));
  let c0 = ct.y;                           // first output column of this column tile
  let i0 = ct.x * TILE;
  if (i0 >= fm.n) {
    return;
  }
  let d = fm.d;
  let qd = DT / 4u;
  let qr = TILE / 4u;
  let ti = lid / qd;                       // rows ti + a·qr
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let p = i0 / fm.chunk;
  let cs = p * fm.chunk;

  // Inter-chunk part: φ(q_i) against the exclusive prefix state of chunk p.
  var b = lt_query_state(i0, p * fm.mp * (d + 1u), c0, lid);

  // Intra-chunk part: Σ_{cs ≤ j ≤ i} G_ij v_j, key sub-tiles up to the tile's last row.
  let goff = fm.a0;
  let ilast = min(fm.n, i0 + TILE) - 1u;
  for (var js = cs; js <= ilast; js += TJ) {
    workgroupBarrier();
    for (var e = lid; e < TILE * TJ; e += FM_WG) {           // G sub-tile → fm_phi[il·TJ + jl]
      let i = i0 + e / TJ;
      let j = js + e % TJ;
      var g = 0.0;
      if (i < fm.n && j <= i) {
        g = lt_state_in[goff + i * fm.chunk + (j - cs)];
      }
      fm_phi[e] = g;
    }
    lt_load_v_tile(js, fm.n, c0, lid);                       // V sub-tile → fm_a[jl·qd + c4]
    workgroupBarrier();
    for (var jl = 0u; jl < TJ; jl++) {
      let g = lt_phi4(ti * TJ + jl, qr * TJ);
      b.den = b.den + g;
      lt_fma(&b, g, fm_a[jl * qd + td]);
    }
  }

  lt_store_block(i0, c0, lid, b);
}
