/** Copy a GPU buffer's first `bytes` bytes to the CPU as a Float32Array. */
export async function readFloats(
  device: GPUDevice,
  src: GPUBuffer,
  floats: number,
  offsetFloats = 0,
): Promise<Float32Array> {
  const bytes = floats * 4;
  if (bytes === 0) return new Float32Array(0);
  const staging = device.createBuffer({
    label: `readback:${src.label}`,
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const enc = device.createCommandEncoder({ label: 'readback' });
    enc.copyBufferToBuffer(src, offsetFloats * 4, staging, 0, bytes);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return new Float32Array(staging.getMappedRange().slice(0));
  } finally {
    // Staging buffers are short-lived by design: mapping state makes pooling them error-prone.
    staging.destroy();
  }
}

/**
 * Several results read back together: each `add` reserves a range of one staging buffer, `encode`
 * copies every source into it (in the job's own command encoder, after its passes), and `read`
 * maps it once and hands out copies of the ranges. The staging buffer is an allocator role, kept
 * across runs; it is always unmapped again before `read` returns, so the next run may reuse (or
 * grow) it.
 */
export class BatchReadback {
  private readonly parts: { src: GPUBuffer; bytes: number; offset: number }[] = [];
  private size = 0;

  /** Reserves `bytes` of `src` (from its start); returns the part's index. Offsets stay 8-byte aligned. */
  add(src: GPUBuffer, bytes: number): number {
    this.parts.push({ src, bytes, offset: this.size });
    this.size += Math.ceil(bytes / 8) * 8;
    return this.parts.length - 1;
  }

  get bytes(): number {
    return this.size;
  }

  encode(encoder: GPUCommandEncoder, staging: GPUBuffer): void {
    for (const p of this.parts) if (p.bytes > 0) encoder.copyBufferToBuffer(p.src, 0, staging, p.offset, p.bytes);
  }

  /** Maps `staging` (after the encoder was submitted) and returns one ArrayBuffer per part. */
  async read(staging: GPUBuffer): Promise<ArrayBuffer[]> {
    if (this.size === 0) return [];
    await staging.mapAsync(GPUMapMode.READ, 0, this.size);
    try {
      const all = staging.getMappedRange(0, this.size);
      return this.parts.map((p) => all.slice(p.offset, p.offset + p.bytes));
    } finally {
      staging.unmap();
    }
  }
}
