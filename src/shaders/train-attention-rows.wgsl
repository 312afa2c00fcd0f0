// Row indexing shared by the trainer's one-invocation-per-row attention kernels
// (train-softmax-attention-{forward,backward}.wgsl, train-linear-attention-*.wgsl; prepended by
// src/gpu/train/softmax-attention.ts and linear-attention.ts). The including module's uniform U
// has B, L, H, dh and gx.
//
// Dispatch: ⌈B·H·L / 64⌉ workgroups of @workgroup_size(64), split over (x, y) with x = gx; row id
// r = gid.x + gid.y·gx·64 = (b·H + h)·L + t (t fastest). The blocked kernels take one invocation
// per block of 4 rows (linear attention: ⌈B·H·⌈L/4⌉ / 64⌉ workgroups, block id
// r = (b·H + h)·⌈L/4⌉ + t/4, `attn_block`; its t is the block's first row) or of 8 rows (softmax
// attention: ⌈B·H·⌈L/8⌉ / 16⌉ workgroups of 16, `attn_block8`).

const WG: u32 = 64u;

struct AttnRow {
  r: u32,
  t: u32,
  bh: u32,
  h: u32,
  b: u32,
}

fn flat_id(gid: vec3<u32>) -> u32 { return gid.x + gid.y * U.gx * WG; }

/// The (b, h, t) of this invocation's row.
fn attn_row(gid: vec3<u32>) -> AttnRow {
  let r = flat_id(gid);
  let bh = r / U.L;
  return AttnRow(r, r % U.L, bh, bh % U.H, bh / U.H);
}

/// True for the grid's padding past the last of the B·H·L rows.
fn attn_row_out(w: AttnRow) -> bool { return w.r >= U.B * U.H * U.L; }

/// Index of element 0 of head h in row t of w's sequence in a strided view: off + (b·L + t)·ld + h·dh.
fn head_at(off: u32, ld: u32, w: AttnRow, t: u32) -> u32 { return off + (w.b * U.L + t) * ld + w.h * U.dh; }

/// The (b, h, first row t) of this invocation's block of 4 rows t … t+3 (rows ≥ L: padding).
fn attn_block(gid: vec3<u32>) -> AttnRow {
  let r = flat_id(gid);
  let nb = (U.L + 3u) / 4u;
  let bh = r / nb;
  return AttnRow(r, (r % nb) * 4u, bh, bh % U.H, bh / U.H);
}

/// True for the grid's padding past the last of the B·H·⌈L/4⌉ blocks.
fn attn_block_out(w: AttnRow) -> bool { return w.bh >= U.B * U.H; }

/// The same for blocks of 8 rows t … t+7 (⌈B·H·⌈L/8⌉ / 16⌉ workgroups of 16: softmax attention).
fn attn_block8(gid: vec3<u32>) -> AttnRow {
  let r = gid.x + gid.y * U.gx * 16u;
  let nb = (U.L + 7u) / 8u;
  let bh = r / nb;
  return AttnRow(r, (r % nb) * 8u, bh, bh % U.H, bh / U.H);
}

fn attn_block8_out(w: AttnRow) -> bool { return w.bh >= U.B * U.H; }
