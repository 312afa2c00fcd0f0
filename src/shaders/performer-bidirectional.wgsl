// performer-bidirectional.wgsl — bidirectional linear attention without materializing φ(Q), φ(K):
//   S = φ(K)ᵀ V (m'×d),  z = φ(K)ᵀ 1 (m'),  out_i = (φ(q_i)ᵀ S) / (φ(q_i)·z).
// Prepended at dispatch time by feature-map-common.wgsl (bindings 0–5, φ tiles computed on the fly
// from Q/K/W slabs in workgroup memory; the stabilizer stats come from favor-features.wgsl passes
// that ran before). CPU twin: src/core/linear-attention.ts linearAttentionOutput (causal = false).
// Every entry point runs 256 invocations; workgroup ids are linearised id.x + id.y·num_workgroups.x.
//
// Tiling (override constants, chosen by the dispatcher from d): DT ∈ {64, 128, 256} ≥ d output
// columns per workgroup, TILE = 4096 / DT (features of a state tile, or query rows of an output
// tile), TJ rows per key sub-tile, FQ features per step of the output kernel. Each invocation owns
// a 4×4 register block; invocation lid covers rows/features tf + a·TILE/4 and columns
// td + b·DT/4 (tf = lid / (DT/4), td = lid % (DT/4)), so workgroup-memory reads are conflict-free
// and global writes coalesced.
//
// Entry points:
//   kv_partials  per (feature tile of TILE features, key chunk p of `chunk` rows):
//                part[p·E + f·d + c] = Σ_{j∈p} φ(k_j)_f v_jc, part[p·E + m'·d + f] = Σ_{j∈p} φ(k_j)_f,
//                E = m'·(d+1); j in increasing order. Also used by the causal scan (chunk states).
//                Dispatch: nchunks · ceil(nu / (TILE/fm.nb)). Bindings 0–5, 6 V (read), 7 part (rw).
//   kv_reduce    state[e] = Σ_{p = 0, 1, …, nchunks−1} part[p·E + e] (fixed order) for e < E.
//                Dispatch: ceil(E / 256). Bindings 0, 8 part (read), 9 state (rw).
//   bidir_out    per tile of TILE query rows: loop over feature steps of FQ features, φ(Q) tile on
//                the fly, out_ic = Σ_f φ_if S_fc / Σ_f φ_if z_f (features in a fixed order).
//                Dispatch: ceil(n / TILE). Bindings 0–5, 10 state (read), 11 out (rw, n×d).

override DT: u32 = 64u;
override TILE: u32 = 64u;
override TJ: u32 = 16u;
override FQ: u32 = 16u;

@group(0) @binding(6) var<storage, read> pb_v: array<f32>;
@group(0) @binding(7) var<storage, read_write> pb_part: array<f32>;
@group(0) @binding(8) var<storage, read> pb_part_in: array<f32>;
@group(0) @binding(9) var<storage, read_write> pb_state: array<f32>;
@group(0) @binding(10) var<storage, read> pb_state_in: array<f32>;
@group(0) @binding(11) var<storage, read_write> pb_out: array<f32>;

var<workgroup> pb_z: array<f32, 64>;

fn pb_linear(id: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return id.x + id.y * nwg.x;
}

@compute @workgroup_size(256)
fn kv_partials(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
  let C = TILE / fm.nb;                    // u columns per tile
  let ftiles = (fm.nu + C - 1u) / C;
  let wid = pb_linear(id, nwg);
  let p = wid / ftiles;
  if (p >= fm.nchunks) {
    return;
  }
  let u0 = (wid % ftiles) * C;
  let d = fm.d;
  let qd = DT / 4u;
  let qf = TILE / 4u;
  let tf = lid / qd;
  let td = lid % qd;
  let j0 = p * fm.chunk;
  let j1 = min(fm.n, j0 + fm.chunk);

  var acc: array<f32, 16>;
  var zacc = array<f32, 4>(0.0, 0.0, 0.0, 0.0);
  for (var js = j0; js < j1; js += TJ) {
    fm_phi_tile(FM_KEY, js, u0, TJ, C, lid, 0u, TILE);      // fm_phi[jl·TILE + l]
    for (var e = lid; e < TJ * DT; e += FM_WG) {             // V sub-tile → fm_a[jl·DT + c]
      let j = js + e / DT;
      let c = e % DT;
      var v = 0.0;
      if (j < j1 && c < d) {
        v = pb_v[j * d + c];
      }
      fm_a[e] = v;
    }
    workgroupBarrier();
    for (var jl = 0u; jl < TJ; jl++) {
      for (var a = 0u; a < 4u; a++) {
        let ph = fm_phi[jl * TILE + tf + a * qf];
        zacc[a] = zacc[a] + ph;
        for (var b = 0u; b < 4u; b++) {
          acc[a * 4u + b] = acc[a * 4u + b] + ph * fm_a[jl * DT + td + b * qd];
        }
      }
    }
  }

  let E = fm.mp * (d + 1u);
  let base = p * E;
  for (var a = 0u; a < 4u; a++) {
    let l = tf + a * qf;
    let cl = l % C;
    if (u0 + cl >= fm.nu) {
      continue;
    }
    let f = (l / C) * fm.nu + u0 + cl;
    for (var b = 0u; b < 4u; b++) {
      let c = td + b * qd;
      if (c < d) {
        pb_part[base + f * d + c] = acc[a * 4u + b];
      }
    }
    if (td == 0u) {
      pb_part[base + fm.mp * d + f] = zacc[a];
    }
  }
}

@compute @workgroup_size(256)
fn kv_reduce(@builtin(workgroup_id) id: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
  let e = pb_linear(id, nwg) * FM_WG + lid;
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
  let i0 = pb_linear(id, nwg) * TILE;
  if (i0 >= fm.n) {
    return;
  }
  let C = FQ / fm.nb;
  let d = fm.d;
  let qd = DT / 4u;
  let qr = TILE / 4u;
  let ti = lid / qd;
  let td = lid % qd;
  let zoff = fm.mp * d;

  var acc: array<f32, 16>;
  var den = array<f32, 4>(0.0, 0.0, 0.0, 0.0);
  for (var u0 = 0u; u0 < fm.nu; u0 += C) {
    fm_phi_tile(FM_QUERY, i0, u0, TILE, C, lid, 0u, FQ);    // fm_phi[il·FQ + l]
    for (var e = lid; e < FQ * DT; e += FM_WG) {             // S tile → fm_a[l·DT + c]
      let l = e / DT;
      let c = e % DT;
      let col = u0 + l % C;
      var v = 0.0;
      if (col < fm.nu && c < d) {
        v = pb_state_in[((l / C) * fm.nu + col) * d + c];
      }
      fm_a[e] = v;
    }
    if (lid < FQ) {
      let col = u0 + lid % C;
      var v = 0.0;
      if (col < fm.nu) {
        v = pb_state_in[zoff + (lid / C) * fm.nu + col];
      }
      pb_z[lid] = v;
    }
    workgroupBarrier();
    for (var l = 0u; l < FQ; l++) {
      let zl = pb_z[l];
      for (var a = 0u; a < 4u; a++) {
        let ph = fm_phi[(ti + a * qr) * FQ + l];
        den[a] = den[a] + ph * zl;
        for (var b = 0u; b < 4u; b++) {
          acc[a * 4u + b] = acc[a * 4u + b] + ph * fm_a[l * DT + td + b * qd];
        }
      }
    }
  }

  for (var a = 0u; a < 4u; a++) {
    let row = i0 + ti + a * qr;
    if (row >= fm.n) {
      continue;
    }
    for (var b = 0u; b < 4u; b++) {
      let c = td + b * qd;
      if (c < d) {
        pb_out[row * d + c] = acc[a * 4u + b] / den[a];
      }
    }
  }
}
