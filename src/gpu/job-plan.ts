/**
 * What one AttentionJob will allocate on the GPU, checked against the device's limits *before*
 * anything is allocated (a buffer past maxStorageBufferBindingSize / maxBufferSize becomes a typed
 * 'exceeds-limit' error naming the buffer and its size, instead of a validation error later), and
 * an allocator that remembers which roles one job touched (for `bytesAllocated` and the bench).
 */
import type { AttentionJob } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { featureDim, usesProjection } from '../core/feature-maps';
import { viewGeometry } from '../core/matrix-view';
import { bucketSize, GpuAllocator } from './allocator';
import { keepsRaw, normPartialBytes, rawBytes } from './attention-stats';
import { bidirectionalChunk, performerTiles } from './performer-bidirectional';
import { causalPlan, fusedCausalPlan } from './performer-causal';
import { blockAlignedChunk, projectionBlock, projectionBytes } from './favor-projection';
import { usesExpPath } from './performer-exp';
import { uColumns } from './favor-features';

export interface JobShape {
  n: number;
  d: number;
  /** rows of W actually used (0 for maps without projection) */
  m: number;
  /** feature dimension m' */
  mp: number;
  causal: boolean;
  /** whether the dense O(n²) statistics run (view, row stats or full rows requested) */
  dense: boolean;
}

export function jobShape(job: AttentionJob): JobShape {
  const n = job.inputs.q.rows;
  const d = job.inputs.q.cols;
  const m = usesProjection(job.featureMap) ? job.inputs.w.rows : 0;
  return {
    n,
    d,
    m,
    mp: featureDim(job.featureMap, m, d),
    causal: job.causal,
    dense: job.viewCells > 0 || job.rowStats || job.rows.length > 0,
  };
}

/** The largest buffers a job creates, by name, in bytes (before the allocator's rounding). */
export function plannedBuffers(job: AttentionJob, maxBinding: number): [string, number][] {
  const s = jobShape(job);
  const { n, d, mp } = s;
  const f = 4;
  const vec4Rows = (cols: number): number => n * Math.ceil(cols / 4) * 16;
  const out: [string, number][] = [
    ['Q', n * d * f],
    ['K', n * d * f],
    ['V', n * d * f],
    ['W', Math.max(1, job.inputs.w.rows) * d * f],
    ['exact output', n * d * f],
    ['approximate output', n * d * f],
  ];
  if (d % 4 !== 0) out.push(['Q, K, V padded to vec4 rows', vec4Rows(d)]);
  const state = mp * (d + 1) * f;
  out.push(['the Performer key/value state', state]);
  const nu = uColumns(job.featureMap, s.m, d);
  const fast = usesExpPath({ n, d, m: s.m, featureMap: job.featureMap }, maxBinding);
  // the fast path holds the projections of one row block (all n rows when they fit)
  const block = fast ? projectionBlock(n, nu, maxBinding) : n;
  if (fast) out.push(['the projections XWᵀ of Q and K', projectionBytes(block, nu)]);
  if (s.causal) {
    // the plans throw 'exceeds-limit' themselves when no chunk size fits.
    const plan = fast ? fusedCausalPlan(n, d, mp, maxBinding) : causalPlan(n, d, mp, maxBinding);
    out.push(['the causal Performer workspace', plan.bytes]);
  } else {
    const t = performerTiles(d);
    const ftiles = fast ? Math.ceil(mp / 64) : Math.ceil(nu / (t.TILE / (mp / nu)));
    const { chunk, chunks } = bidirectionalChunk(n, d, mp, ftiles, maxBinding);
    const parts = fast ? Math.ceil(n / blockAlignedChunk(chunk, block, n)) : chunks;
    out.push(['the Performer key/value partials', parts * state]);
  }
  if (s.dense) {
    out.push(['the feature matrix φ(Q)', n * mp * f]);
    if (mp % 4 !== 0) out.push(['φ(Q) padded to vec4 rows', vec4Rows(mp)]);
    out.push(['the row normalizers', n * 16]);
    out.push(["the row normalizers' per-thread partials", normPartialBytes(n)]);
    if (job.rowStats) out.push(['the row statistics', 5 * n * f]);
    if (job.rows.length > 0) out.push([`${job.rows.length} full attention rows`, 2 * job.rows.length * n * f]);
    if (job.viewCells > 0) {
      const { cells } = viewGeometry(n, job.viewCells);
      out.push(['the matrix view', 3 * cells * cells * f]);
    }
    if (keepsRaw(n, maxBinding)) out.push(['the raw scores and kernel values', rawBytes(n)]);
  }
  return out;
}

const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;

/** Throws 'exceeds-limit' if any planned buffer (as the allocator will round it) exceeds the device's per-buffer limits. */
export function checkJobLimits(job: AttentionJob, limits: GPUSupportedLimits): void {
  const maxBinding = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  for (const [what, bytes] of plannedBuffers(job, maxBinding)) {
    const size = bucketSize(Math.max(4, Math.ceil(bytes / 4) * 4));
    if (size > maxBinding) {
      throw new EngineError(
        'exceeds-limit',
        `${what} needs ${mib(size)} (${size} bytes) but this GPU allows at most ${mib(maxBinding)} (${maxBinding} bytes) per buffer`,
        { buffer: what, bytes: size, limit: maxBinding },
      );
    }
  }
}

/**
 * A GpuAllocator that records the buffers (roles) requested since `beginJob()` with the size the
 * request needs (rounded as the allocator rounds), so a job's bytes do not depend on how large a
 * reused buffer happens to be from an earlier, larger job.
 */
export class JobAllocator extends GpuAllocator {
  private touched = new Map<string, number>();

  override buffer(role: string, bytes: number, usage: number): GPUBuffer {
    const b = super.buffer(role, bytes, usage);
    this.touched.set(role, bucketSize(Math.max(4, Math.ceil(bytes / 4) * 4)));
    return b;
  }

  beginJob(): void {
    this.touched.clear();
  }

  /** Bytes of the buffers used since `beginJob()`. */
  jobBytes(): number {
    let s = 0;
    for (const v of this.touched.values()) s += v;
    return s;
  }
}
