/**
 * Dispatcher of src/shaders/attention-row-list-batch.wgsl: the per-row statistics (and, when asked,
 * the rows) of exact vs approximate attention for a whole batch of variants on a list of query rows,
 * in two dispatches whatever the number of variants (cost O((V + 1)·R·n·m'), memory O(V·R·n)).
 * CPU twin: core/analysis-backend.ts rowListStats on core/sweeps.ts exactRowsOf / approxRowsOf.
 *
 * The caller packs every slot's vec4 rows into one `feats` buffer (`packSlots` lays the slots out):
 * slots 0 … V−1 the variants' φ(Q), φ(K), slot V the exact Q, K. A slot's query side holds either the
 * R listed rows (compact) or all n rows (`qFull`, as the feature kernels write them).
 */
import code from '../shaders/attention-row-list-batch.wgsl?raw';
import type { KernelContext } from './kernel-context';
import { bindAt } from './favor-dispatch';
import { shaderSource } from './shader-source';

/** statistics per listed row: H(A), H(Â), Σ(A − Â)², Σ A², KL (as attention-row-list-stats.ts) */
export const BATCH_ROW_STATS = 5;
const WG = 64;

/** Where one slot's rows lie in `feats` (offsets and widths in vec4s). */
export interface BatchSlot {
  qOff: number;
  kOff: number;
  m4: number;
  /** the query side holds all n rows (row r_t at r_t), else only the R listed rows (row t) */
  qFull: boolean;
}

/** Lays out slots of widths m4 one after another (query side: n rows when `qFull`, else the R listed rows; then n keys); returns them and the total vec4 count. */
export function packSlots(
  specs: readonly { m4: number; qFull: boolean }[],
  n: number,
  rowCount: number,
): { slots: BatchSlot[]; vec4s: number } {
  let at = 0;
  const slots = specs.map(({ m4, qFull }) => {
    const s: BatchSlot = { qOff: at, kOff: at + (qFull ? n : rowCount) * m4, m4, qFull };
    at = s.kOff + n * m4;
    return s;
  });
  return { slots, vec4s: at };
}

export interface RowListBatch {
  n: number;
  d: number;
  causal: boolean;
  /** R listed rows (u32, ascending, distinct) */
  rowList: GPUBuffer;
  rowCount: number;
  /** V + 1 slots, the exact one last */
  slots: readonly BatchSlot[];
  feats: GPUBuffer;
  /** also write the rows A, Â (R × n each) after the statistics */
  fullRows: boolean;
}

/** Floats of the output: the statistics (5 planes of R per variant), then with fullRows (V + 1)·R·n rows. */
export function batchOutFloats(b: Pick<RowListBatch, 'n' | 'rowCount' | 'slots' | 'fullRows'>): number {
  const V = b.slots.length - 1;
  return BATCH_ROW_STATS * V * b.rowCount + (b.fullRows ? (V + 1) * b.rowCount * b.n : 0);
}

/** Bytes of the intermediate dot products (every slot's R × n, keys padded to 8). */
export function batchDotsBytes(n: number, rowCount: number, slots: number): number {
  return slots * rowCount * 2 * Math.ceil(n / 8) * 16;
}

/**
 * Encodes both passes ('row-batch.dots', 'row-batch.reduce'); returns the output buffer (role
 * 'rowbatch.out': statistics at float (5v + k)·R + t, rows from float 5·V·R on, slot-major).
 */
export function encodeRowListBatch(ctx: KernelContext, encoder: GPUCommandEncoder, b: RowListBatch): GPUBuffer {
  const { n, rowCount: R, slots } = b;
  const V = slots.length - 1;
  const k8 = Math.ceil(n / 8);
  const ns = 2 * k8;
  const table = new Uint32Array(slots.length * 4);
  slots.forEach((s, i) => table.set([s.qOff, s.kOff, s.m4, s.qFull ? 1 : 0], 4 * i));
  const buf = new ArrayBuffer(48);
  const u = new Uint32Array(buf);
  u.set([n, b.causal ? 1 : 0, R, V, ns, k8, b.fullRows ? 1 : 0, BATCH_ROW_STATS * V * R]);
  new Float32Array(buf)[8] = 1 / Math.sqrt(b.d);
  const a = ctx.alloc;
  const uniform = a.uniform('rowbatch.u', new Uint8Array(buf));
  const tableBuf = a.upload('rowbatch.table', table);
  const dots = a.storage('rowbatch.dots', batchDotsBytes(n, R, slots.length));
  const out = a.storage('rowbatch.out', batchOutFloats(b) * 4);
  // each entry point's own bindings (auto layouts)
  const dotsEntries = { 0: uniform, 1: b.feats, 2: tableBuf, 3: b.rowList, 4: dots };
  const reduceEntries = { 0: uniform, 3: b.rowList, 4: dots, 5: out };
  const src = shaderSource(code);
  const dotsPl = ctx.pipelines.pipeline('attention-row-list-batch', src, 'rowDots');
  const reducePl = ctx.pipelines.pipeline('attention-row-list-batch', src, 'rowReduce');
  let pass = encoder.beginComputePass(ctx.timer.pass('row-batch.dots'));
  pass.setPipeline(dotsPl);
  pass.setBindGroup(0, bindAt(ctx.device, dotsPl, dotsEntries, 'row-batch.dots'));
  pass.dispatchWorkgroups(Math.ceil((Math.ceil(R / 4) * k8) / WG), slots.length);
  pass.end();
  pass = encoder.beginComputePass(ctx.timer.pass('row-batch.reduce'));
  pass.setPipeline(reducePl);
  pass.setBindGroup(0, bindAt(ctx.device, reducePl, reduceEntries, 'row-batch.reduce'));
  pass.dispatchWorkgroups(Math.ceil((V * R) / WG));
  pass.end();
  return out;
}
