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
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, φ tiles on the fly).
// CPU twin: src/core/linear-attention.ts linearAttentionOutput(qf, kf, v, true).
// Every entry point runs 256 invocations; workgroup ids are linearised id.x + id.y·num_workgroups.x.
// Tiling of causal_out as bidir_out (DT, TILE = 4096/DT query rows, FQ features per step, TJ keys
// per sub-tile of the intra-chunk part; 4×4 register blocks: rows ti + a·TILE/4 × columns
// 4·td .. 4·td+3, V / state tiles as vec4 rows in workgroup memory); causal_gram uses 64×64 G
// tiles (4×4 per invocation: rows ti + 16x, keys tj + 16y) and 8 features per step.
//
// FmParams: chunk = C, nchunks, a0 = goff (float offset of G in `work`).
// Entry points and bindings:
//   causal_prefix  Dispatch ceil(E / 256).                           0, 12 work (rw)
//   causal_gram    Dispatch nchunks · T(T+1)/2, T = C / 64.          0–5, 12 work (rw)
//   causal_out     Dispatch ceil(n / TILE).                          0–5, 6 V, 13 work (read), 14 out

override DT: u32 = 64u;
override TILE: u32 = 64u;
override TJ: u32 = 16u;
override FQ: u32 = 16u;

@group(0) @binding(6) var<storage, read> pc_v: array<f32>;
@group(0) @binding(12) var<storage, read_write> pc_work: array<f32>;
@group(0) @binding(13) var<storage, read> pc_work_in: array<f32>;
@group(0) @binding(14) var<storage, read_write> pc_out: array<f32>;

var<workgroup> pc_z: array<f32, 64>;

const GT: u32 = 64u;       // G tile side
const GF: u32 = 8u;        // features per step of causal_gram
const GS: u32 = 9u;        // padded φ row stride in causal_gram
const GK_OFF: u32 = 576u;  // φ(K) rows start at tile row 64: offset 64 × GS in fm_phi

fn pc_linear(id: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return id.x + id.y * nwg.x;
}

@compute @workgroup_size(256)
fn causal_prefix(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
  let e = pc_linear(id, nwg) * FM_WG + lid;
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
  let wid = pc_linear(id, nwg);
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

fn pc_v4(j: u32, c4: u32) -> vec4<f32> {
  let d = fm.d;
  let c = 4u * c4;
  let o = j * d + c;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = pc_v[o]; }
  if (c + 1u < d) { v.y = pc_v[o + 1u]; }
  if (c + 2u < d) { v.z = pc_v[o + 2u]; }
  if (c + 3u < d) { v.w = pc_v[o + 3u]; }
  return v;
}

fn pc_s4(o: u32, c: u32) -> vec4<f32> {
  let d = fm.d;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = pc_work_in[o]; }
  if (c + 1u < d) { v.y = pc_work_in[o + 1u]; }
  if (c + 2u < d) { v.z = pc_work_in[o + 2u]; }
  if (c + 3u < d) { v.w = pc_work_in[o + 3u]; }
  return v;
}

fn pc_store_out(o: u32, c: u32, v: vec4<f32>) {
  let d = fm.d;
  if (c < d) { pc_out[o] = v.x; }
  if (c + 1u < d) { pc_out[o + 1u] = v.y; }
  if (c + 2u < d) { pc_out[o + 2u] = v.z; }
  if (c + 3u < d) { pc_out[o + 3u] = v.w; }
}

@compute @workgroup_size(256)
fn causal_out(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
  let i0 = pc_linear(id, nwg) * TILE;
  if (i0 >= fm.n) {
    return;
  }
  let C = FQ / fm.nb;
  let d = fm.d;
  let qd = DT / 4u;
  let qr = TILE / 4u;
  let ti = lid / qd;                       // rows ti + a·qr
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let p = i0 / fm.chunk;
  let cs = p * fm.chunk;
  let E = fm.mp * (d + 1u);
  let soff = p * E;
  let zoff = soff + fm.mp * d;

  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var den = vec4<f32>(0.0);
  // Inter-chunk part: φ(q_i) against the exclusive prefix state of chunk p.
  for (var u0 = 0u; u0 < fm.nu; u0 += C) {
    fm_phi_tile(FM_QUERY, i0, u0, TILE, C, lid, 0u, FQ);    // fm_phi[il·FQ + l]
    for (var e = lid; e < FQ * qd; e += FM_WG) {             // prefix state tile → fm_a[l·qd + c4]
      let l = e / qd;
      let col = u0 + l % C;
      var v = vec4<f32>(0.0);
      if (col < fm.nu) {
        let c = 4u * (e % qd);
        v = pc_s4(soff + ((l / C) * fm.nu + col) * d + c, c);
      }
      fm_a[e] = v;
    }
    if (lid < FQ) {
      let col = u0 + lid % C;
      var v = 0.0;
      if (col < fm.nu) {
        v = pc_work_in[zoff + (lid / C) * fm.nu + col];
      }
      pc_z[lid] = v;
    }
    workgroupBarrier();
    for (var l = 0u; l < FQ; l++) {
      let s4 = fm_a[l * qd + td];
      let o = ti * FQ + l;
      let ph = vec4<f32>(fm_phi[o], fm_phi[o + qr * FQ], fm_phi[o + 2u * qr * FQ], fm_phi[o + 3u * qr * FQ]);
      den = den + ph * pc_z[l];
      acc0 = acc0 + ph.x * s4;
      acc1 = acc1 + ph.y * s4;
      acc2 = acc2 + ph.z * s4;
      acc3 = acc3 + ph.w * s4;
    }
  }

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
        g = pc_work_in[goff + i * fm.chunk + (j - cs)];
      }
      fm_phi[e] = g;
    }
    for (var e = lid; e < TJ * qd; e += FM_WG) {             // V sub-tile → fm_a[jl·qd + c4]
      let j = js + e / qd;
      var v = vec4<f32>(0.0);
      if (j < fm.n) {
        v = pc_v4(j, e % qd);
      }
      fm_a[e] = v;
    }
    workgroupBarrier();
    for (var jl = 0u; jl < TJ; jl++) {
      let v4 = fm_a[jl * qd + td];
      let o = ti * TJ + jl;
      let g = vec4<f32>(fm_phi[o], fm_phi[o + qr * TJ], fm_phi[o + 2u * qr * TJ], fm_phi[o + 3u * qr * TJ]);
      den = den + g;
      acc0 = acc0 + g.x * v4;
      acc1 = acc1 + g.y * v4;
      acc2 = acc2 + g.z * v4;
      acc3 = acc3 + g.w * v4;
    }
  }

  let c = 4u * td;
  let r0 = i0 + ti;
  if (r0 < fm.n) { pc_store_out(r0 * d + c, c, acc0 / den.x); }
  if (r0 + qr < fm.n) { pc_store_out((r0 + qr) * d + c, c, acc1 / den.y); }
  if (r0 + 2u * qr < fm.n) { pc_store_out((r0 + 2u * qr) * d + c, c, acc2 / den.z); }
  if (r0 + 3u * qr < fm.n) { pc_store_out((r0 + 3u * qr) * d + c, c, acc3 / den.w); }
}
