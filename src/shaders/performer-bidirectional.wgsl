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
// a 4×4 register block: rows/features tf + a·TILE/4 (a = 0..3) × columns 4·td .. 4·td+3
// (tf = lid / (DT/4), td = lid % (DT/4)); V and state tiles sit in workgroup memory as vec4 rows,
// so each step is 4 broadcast φ loads + 1 vec4 load for 16 FMAs, and global accesses are
// contiguous across invocations.
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

/// Row j of a row-major matrix with d columns, columns 4·c4 .. 4·c4+3 (zeros past d).
fn pb_v4(j: u32, c4: u32) -> vec4<f32> {
  let d = fm.d;
  let c = 4u * c4;
  let o = j * d + c;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = pb_v[o]; }
  if (c + 1u < d) { v.y = pb_v[o + 1u]; }
  if (c + 2u < d) { v.z = pb_v[o + 2u]; }
  if (c + 3u < d) { v.w = pb_v[o + 3u]; }
  return v;
}

/// m'×d state rows from `pb_state_in` as vec4 (zeros past d).
fn pb_s4(f: u32, c4: u32) -> vec4<f32> {
  let d = fm.d;
  let c = 4u * c4;
  let o = f * d + c;
  var v = vec4<f32>(0.0);
  if (c < d) { v.x = pb_state_in[o]; }
  if (c + 1u < d) { v.y = pb_state_in[o + 1u]; }
  if (c + 2u < d) { v.z = pb_state_in[o + 2u]; }
  if (c + 3u < d) { v.w = pb_state_in[o + 3u]; }
  return v;
}

fn pb_store_part(o: u32, c: u32, v: vec4<f32>) {
  let d = fm.d;
  if (c < d) { pb_part[o] = v.x; }
  if (c + 1u < d) { pb_part[o + 1u] = v.y; }
  if (c + 2u < d) { pb_part[o + 2u] = v.z; }
  if (c + 3u < d) { pb_part[o + 3u] = v.w; }
}

fn pb_store_out(o: u32, c: u32, v: vec4<f32>) {
  let d = fm.d;
  if (c < d) { pb_out[o] = v.x; }
  if (c + 1u < d) { pb_out[o + 1u] = v.y; }
  if (c + 2u < d) { pb_out[o + 2u] = v.z; }
  if (c + 3u < d) { pb_out[o + 3u] = v.w; }
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
  let qd = DT / 4u;                        // vec4 columns per tile row
  let qf = TILE / 4u;
  let tf = lid / qd;                       // features tf + a·qf
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let j0 = p * fm.chunk;
  let j1 = min(fm.n, j0 + fm.chunk);

  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var zacc = vec4<f32>(0.0);
  for (var js = j0; js < j1; js += TJ) {
    fm_phi_tile(FM_KEY, js, u0, TJ, C, lid, 0u, TILE);      // fm_phi[jl·TILE + l]
    for (var e = lid; e < TJ * qd; e += FM_WG) {             // V sub-tile → fm_a[jl·qd + c4]
      let j = js + e / qd;
      var v = vec4<f32>(0.0);
      if (j < j1) {
        v = pb_v4(j, e % qd);
      }
      fm_a[e] = v;
    }
    workgroupBarrier();
    for (var jl = 0u; jl < TJ; jl++) {
      let v4 = fm_a[jl * qd + td];
      let o = jl * TILE + tf;
      let ph = vec4<f32>(fm_phi[o], fm_phi[o + qf], fm_phi[o + 2u * qf], fm_phi[o + 3u * qf]);
      acc0 = acc0 + ph.x * v4;
      acc1 = acc1 + ph.y * v4;
      acc2 = acc2 + ph.z * v4;
      acc3 = acc3 + ph.w * v4;
      zacc = zacc + ph;
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
    var v = acc0;
    if (a == 1u) { v = acc1; }
    if (a == 2u) { v = acc2; }
    if (a == 3u) { v = acc3; }
    pb_store_part(base + f * d + 4u * td, 4u * td, v);
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
  let ti = lid / qd;                       // rows ti + a·qr
  let td = lid % qd;                       // columns 4·td .. 4·td + 3
  let zoff = fm.mp * d;

  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  var den = vec4<f32>(0.0);
  for (var u0 = 0u; u0 < fm.nu; u0 += C) {
    fm_phi_tile(FM_QUERY, i0, u0, TILE, C, lid, 0u, FQ);    // fm_phi[il·FQ + l]
    for (var e = lid; e < FQ * qd; e += FM_WG) {             // S tile → fm_a[l·qd + c4]
      let l = e / qd;
      let col = u0 + l % C;
      var v = vec4<f32>(0.0);
      if (col < fm.nu) {
        v = pb_s4((l / C) * fm.nu + col, e % qd);
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
      let s4 = fm_a[l * qd + td];
      let o = ti * FQ + l;
      let ph = vec4<f32>(fm_phi[o], fm_phi[o + qr * FQ], fm_phi[o + 2u * qr * FQ], fm_phi[o + 3u * qr * FQ]);
      den = den + ph * pb_z[l];
      acc0 = acc0 + ph.x * s4;
      acc1 = acc1 + ph.y * s4;
      acc2 = acc2 + ph.z * s4;
      acc3 = acc3 + ph.w * s4;
    }
  }

  let c = 4u * td;
  let r0 = i0 + ti;
  if (r0 < fm.n) { pb_store_out(r0 * d + c, c, acc0 / den.x); }
  if (r0 + qr < fm.n) { pb_store_out((r0 + qr) * d + c, c, acc1 / den.y); }
  if (r0 + 2u * qr < fm.n) { pb_store_out((r0 + 2u * qr) * d + c, c, acc2 / den.z); }
  if (r0 + 3u * qr < fm.n) { pb_store_out((r0 + 3u * qr) * d + c, c, acc3 / den.w); }
}
