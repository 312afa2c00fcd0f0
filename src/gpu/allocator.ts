/**
 * The one place GPU buffers are created. Buffers are keyed by role ("exact.out", "favor.qf", …) and
 * reused across recomputes while they are large enough, so dragging a slider does not churn
 * allocations; the allocator counts live buffers and bytes so tests can prove nothing leaks.
 */

export interface AllocatorStats {
  liveBuffers: number;
  liveBytes: number;
  /** buffers ever created (grows only when a role needs a bigger buffer) */
  created: number;
}

interface Slot {
  buffer: GPUBuffer;
  size: number;
  usage: number;
}

/** Round sizes up so that small changes of n do not force a new buffer every time. */
export function bucketSize(bytes: number): number {
  const min = 256;
  if (bytes <= min) return min;
  // next multiple of 1/8 of the power of two just below: at most 12.5 % waste
  const p = 2 ** Math.floor(Math.log2(bytes));
  const step = Math.max(4, p / 8);
  return Math.ceil(bytes / step) * step;
}

export class GpuAllocator {
  private readonly slots = new Map<string, Slot>();
  private createdCount = 0;

  constructor(private readonly device: GPUDevice) {}

  /** A buffer for `role` of at least `bytes` (4-byte aligned), reused when possible. */
  buffer(role: string, bytes: number, usage: number): GPUBuffer {
    const size = bucketSize(Math.max(4, Math.ceil(bytes / 4) * 4));
    const slot = this.slots.get(role);
    if (slot && slot.size >= size && slot.usage === usage) return slot.buffer;
    if (slot) slot.buffer.destroy();
    const buffer = this.device.createBuffer({ label: role, size, usage });
    this.createdCount++;
    this.slots.set(role, { buffer, size, usage });
    return buffer;
  }

  /** Write `data` into the buffer for `role` (creating or growing it). */
  upload(role: string, data: ArrayBufferView, extraUsage = 0): GPUBuffer {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | extraUsage;
    const buf = this.buffer(role, Math.max(4, data.byteLength), usage);
    if (data.byteLength > 0) {
      this.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
    }
    return buf;
  }

  /** A storage buffer for kernel outputs/intermediates. */
  storage(role: string, bytes: number): GPUBuffer {
    return this.buffer(role, bytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
  }

  /** A uniform buffer holding `data` (kernel parameters). */
  uniform(role: string, data: ArrayBufferView): GPUBuffer {
    const buf = this.buffer(role, Math.max(16, data.byteLength), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
    this.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
    return buf;
  }

  release(role: string): void {
    const slot = this.slots.get(role);
    if (!slot) return;
    slot.buffer.destroy();
    this.slots.delete(role);
  }

  releaseAll(): void {
    for (const role of [...this.slots.keys()]) this.release(role);
  }

  stats(): AllocatorStats {
    let liveBytes = 0;
    for (const s of this.slots.values()) liveBytes += s.size;
    return { liveBuffers: this.slots.size, liveBytes, created: this.createdCount };
  }
}
