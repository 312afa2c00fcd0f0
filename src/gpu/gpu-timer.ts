import type { KernelTiming } from '../core/attention-job';

/**
 * Per-kernel GPU timing. With 'timestamp-query' every compute pass gets begin/end timestamps and the
 * times are resolved after the work completes; without it the timer measures wall time from submit
 * to `onSubmittedWorkDone` per kernel (each kernel is then submitted separately).
 */
export class GpuTimer {
  private querySet: GPUQuerySet | null = null;
  private resolveBuf: GPUBuffer | null = null;
  private labels: string[] = [];

  constructor(
    private readonly device: GPUDevice,
    readonly useTimestamps: boolean,
    /** passes timed per submission (later ones run untimed) */
    private readonly capacity = 64,
  ) {
    if (useTimestamps) {
      this.querySet = device.createQuerySet({
        label: 'kernel-timestamps',
        type: 'timestamp',
        count: this.capacity * 2,
      });
      this.resolveBuf = device.createBuffer({
        label: 'kernel-timestamps-resolve',
        size: this.capacity * 2 * 8,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
    }
  }

  reset(): void {
    this.labels = [];
  }

  /** Pass descriptor for the kernel `label` (with timestamp writes when available and capacity remains). */
  pass(label: string): GPUComputePassDescriptor {
    if (!this.querySet || this.labels.length >= this.capacity) return { label };
    const i = this.labels.length;
    this.labels.push(label);
    return {
      label,
      timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 },
    };
  }

  /** Resolve the timestamps written so far into `encoder`; call `read()` after submitting it. */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || !this.resolveBuf || this.labels.length === 0) return;
    encoder.resolveQuerySet(this.querySet, 0, this.labels.length * 2, this.resolveBuf, 0);
  }

  async read(): Promise<KernelTiming[]> {
    if (!this.resolveBuf || this.labels.length === 0) return [];
    const bytes = this.labels.length * 16;
    const staging = this.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    try {
      const enc = this.device.createCommandEncoder();
      enc.copyBufferToBuffer(this.resolveBuf, 0, staging, 0, bytes);
      this.device.queue.submit([enc.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      return this.decode(staging.getMappedRange().slice(0));
    } finally {
      staging.destroy();
    }
  }

  /** The resolved timestamps (after `resolve`) for a caller that reads them back with other results. */
  resolved(): { buffer: GPUBuffer; bytes: number } | null {
    if (!this.resolveBuf || this.labels.length === 0) return null;
    return { buffer: this.resolveBuf, bytes: this.labels.length * 16 };
  }

  /** Every timed pass in encoding order (label, ms), not summed by label. */
  decodeEach(bytes: ArrayBuffer): KernelTiming[] {
    const t = new BigUint64Array(bytes);
    return this.labels.map((kernel, i) => ({
      kernel,
      ms: Math.max(0, Number(t[2 * i + 1]! - t[2 * i]!)) / 1e6,
      source: 'timestamp' as const,
    }));
  }

  /** Per-kernel times from the bytes of `resolved()`. */
  decode(bytes: ArrayBuffer): KernelTiming[] {
    const t = new BigUint64Array(bytes);
    const out: KernelTiming[] = [];
    // Several passes may share a label (e.g. chunks of one kernel): sum them.
    const byLabel = new Map<string, number>();
    this.labels.forEach((label, i) => {
      const ns = Number(t[2 * i + 1]! - t[2 * i]!);
      byLabel.set(label, (byLabel.get(label) ?? 0) + Math.max(0, ns) / 1e6);
    });
    for (const [kernel, ms] of byLabel) out.push({ kernel, ms, source: 'timestamp' });
    return out;
  }

  /**
   * Encodes one command buffer with `encode` (its passes take their descriptors from `pass`), submits
   * it alone and waits for the queue. `ms`: the passes' GPU time with timestamps, else the wall time
   * from submit to `onSubmittedWorkDone`; `passes`: the per-kernel times (empty without timestamps).
   */
  async submitTimed(
    label: string,
    encode: (enc: GPUCommandEncoder) => void,
  ): Promise<{ ms: number; passes: KernelTiming[] }> {
    this.reset();
    const enc = this.device.createCommandEncoder({ label });
    encode(enc);
    this.resolve(enc);
    // wall time: what an earlier turn left queued (an analysis batch's turn ends at its submission) is
    // waited for first, so that it is not counted here
    if (!this.useTimestamps) await this.device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    this.device.queue.submit([enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
    const wall = performance.now() - t0;
    if (!this.useTimestamps) return { ms: wall, passes: [] };
    const passes = await this.read();
    return { ms: passes.reduce((sum, t) => sum + t.ms, 0), passes };
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuf?.destroy();
  }
}
