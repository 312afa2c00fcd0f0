/**
 * Dispatcher of src/shaders/attention-row-list-batch.wgsl: the per-row statistics (and, when asked,
 * the rows) of exact vs approximate attention for a whole batch of variants on a list of query rows,
 * in two dispatches whatever the number of variants (cost O((V + 1)·R·n·m'), memory O(V·R·n)).
 * CPU twin: core/analysis-backend.ts rowListStats on core/sweeps.ts exactRowsOf / approxRowsOf.
 * With `topMass`, src/shaders/attention-row-top-mass.wgsl follows the reduce: the rows' top-k masses
 * (twin: core/sweeps.ts topMassAt), selected in the dots buffer once the reduce no longer needs it.
 *
 * The caller packs every slot's vec4 rows into one `feats` buffer (`packSlots` lays the slots out):
 * slots 0 … V−1 the variants' φ(Q), φ(K), slot V the exact Q, K. A slot's query side holds either the
 * R listed rows (compact) or all n rows (`qFull`, as the feature kernels write them).
 */
import code from '../shaders/attention-row-list-batch.wgsl?raw';
import featuresCode from '../shaders/attention-row-list-features.wgsl?raw';
import topMassCode from '../shaders/attention-row-top-mass.wgsl?raw';
import type { KernelContext } from './kernel-context';
import { bindAt } from './favor-dispatch';
import { shaderSource } from './shader-source';
import { RELU_EPS } from '../core/feature-maps';
import type { FeatureMapKind } from '../core/types';
import { topMassLevels } from '../core/sweeps';

/** statistics per listed row: H(A), H(Â), Σ(A − Â)², Σ A², KL (as attention-row-list-stats.ts) */
export const BATCH_ROW_STATS = 5;
const WG = 64;
/** Row lists up to this length take rowDotsThin (one row per invocation, 9 loads per 8 dots; the 8-row block needs 16 loads per 64) */
export const THIN_ROWS = 2;
/** rowReduce's workgroup size */
const RWG = 16;

/** u32s per slot in the features passes' tables (3 vec4u; the third: where the slot's u rows lie). */
const FEATURES_ENTRY = 12;

/** A features table entry's third vec4u: the rows of u it reads (its own, or those of the slot it follows). */
function uRows(b: RowListBatch, slot: number, uFrom: number | undefined): number[] {
  const u = b.slots[uFrom ?? slot]!;
  return [u.qOff, u.kOff, u.m4, uFrom === undefined ? 0 : 1];
}

/** The maps rowFeaturesDirect forms (its DM_* codes: the index here). */
export const DIRECT_MAPS = ['trig', 'relu', 'elu1', 'cosformer', 'taylor2', 'oprf', 'double-softmax'] as const;
export type DirectMap = (typeof DIRECT_MAPS)[number];
export const isDirectMap = (map: FeatureMapKind): map is DirectMap => (DIRECT_MAPS as readonly string[]).includes(map);

/** attention-row-list-features.wgsl with its generated constants (one module for both entry points). */
const FEATURES_SOURCE = shaderSource(
  [
    ...DIRECT_MAPS.map((m, i) => `const DM_${m.toUpperCase().replace('-', '_')}: u32 = ${i}u;`),
    `const RELU_EPS: f32 = ${RELU_EPS};`,
    `const PI: f32 = ${Math.PI};`,
    `const SQRT1_2: f32 = ${Math.SQRT1_2};`,
  ].join('\n'),
  featuresCode,
);

/** attention-row-top-mass.wgsl (with the shared helpers). */
const TOP_MASS_SOURCE = shaderSource(topMassCode);
const BATCH_SOURCE = shaderSource(code);

/** Where one slot's rows lie in `feats` (offsets and widths in vec4s). */
export interface BatchSlot {
  qOff: number;
  kOff: number;
  m4: number;
  /** the query side holds all n rows (row r_t at r_t), else only the R listed rows (row t) */
  qFull: boolean;
  /** φ formed by attention-row-list-features.wgsl (its keys carry a log-scale) */
  scaled?: boolean;
}

/** A slot whose φ comes from its projection (attention-row-list-features.wgsl): positive, hyperbolic or exp under ε = 0. */
export interface ProjectedSlot {
  /** the batch slot (variant index) */
  slot: number;
  m: number;
  /** first vec4 of its W rows (m × ⌈d/4⌉) in feats */
  wOff: number;
  ratio: number;
  queryHyper: boolean;
  queryNorm: boolean;
  keyHyper: boolean;
  keyNorm: boolean;
  /** the batch slot of an earlier projected slot with the same W, whose u this one reads (a second pass) */
  uFrom?: number;
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

/** A slot whose φ rowFeaturesDirect forms from the rows (a direct map under its twin's formula). */
export interface DirectSlot {
  /** the batch slot (variant index) */
  slot: number;
  map: DirectMap;
  /** projections (trig, relu, oprf; else unused) */
  m: number;
  /** first vec4 of its W rows (m × ⌈d/4⌉) or, for double-softmax's bidirectional keys, of its d column offsets */
  wOff: number;
  ratio: number;
  /** OPRF's A (else 0) */
  a: number;
  causal: boolean;
  /**
   * trig and relu: the batch slot of a projected slot with the same W, whose u (written by the features
   * pass, which runs first) this slot reads instead of projecting again; W rows are then not read
   */
  uFrom?: number;
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
  /** also the rows' top-k masses (attention-row-top-mass.wgsl; the rows are then written too, read back only with fullRows) */
  topMass?: boolean;
  /** slots whose φ the features pass forms first, and the vec4s of feats (the size of its scratch) */
  projected?: readonly ProjectedSlot[];
  /** slots whose φ rowFeaturesDirect forms */
  direct?: readonly DirectSlot[];
  featsVec4s?: number;
}

/**
 * Where the output's parts start (floats): the statistics (5 planes of R per variant) at 0, with topMass
 * the masses ((V + 1)·R·L, slot-major) at `massBase`, with fullRows or topMass the rows ((V + 1)·R·n) at
 * `rowsBase`; `readFloats` is what the host reads back (the rows only with fullRows), `floats` the buffer.
 */
export function batchOutLayout(b: Pick<RowListBatch, 'n' | 'rowCount' | 'slots' | 'fullRows' | 'topMass'>): {
  massBase: number;
  levels: number;
  rowsBase: number;
  readFloats: number;
  floats: number;
} {
  const S = b.slots.length;
  const R = b.rowCount;
  const massBase = BATCH_ROW_STATS * (S - 1) * R;
  const levels = b.topMass ? topMassLevels(b.n) : 0;
  const rowsBase = massBase + S * R * levels;
  const rowFloats = b.fullRows || b.topMass ? S * R * b.n : 0;
  return {
    massBase,
    levels,
    rowsBase,
    readFloats: rowsBase + (b.fullRows ? rowFloats : 0),
    floats: rowsBase + rowFloats,
  };
}

/** Bytes of the intermediate dot products (every slot's R × n, keys padded to 8). */
export function batchDotsBytes(n: number, rowCount: number, slots: number): number {
  return slots * rowCount * 2 * Math.ceil(n / 8) * 16;
}

/**
 * Encodes the passes ('row-batch.features' when slots are projected, 'row-batch.dots', 'row-batch.reduce'); returns the output buffer (role
 * 'rowbatch.out': statistics at float (5v + k)·R + t, rows from float 5·V·R on, slot-major).
 * The features pass goes into `featuresEncoder` when given (a command buffer submitted first, so that the
 * GPU forms its φ while the host forms the twins' slots; it reads only the exact slot and the W rows).
 */
export function encodeRowListBatch(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  b: RowListBatch,
  featuresEncoder: GPUCommandEncoder = encoder,
): GPUBuffer {
  const { n, rowCount: R, slots } = b;
  const V = slots.length - 1;
  const k8 = Math.ceil(n / 8);
  const ns = 2 * k8;
  const table = new Uint32Array(slots.length * 4);
  slots.forEach((s, i) => table.set([s.qOff, s.kOff, s.m4, (s.qFull ? 1 : 0) | (s.scaled ? 2 : 0)], 4 * i));
  const layout = batchOutLayout(b);
  const buf = new ArrayBuffer(48);
  const u = new Uint32Array(buf);
  u.set([n, b.causal ? 1 : 0, R, V, ns, k8, b.fullRows || b.topMass ? 1 : 0, layout.rowsBase]);
  new Float32Array(buf)[8] = 1 / Math.sqrt(b.d);
  const a = ctx.alloc;
  const uniform = a.uniform('rowbatch.u', new Uint8Array(buf));
  const tableBuf = a.upload('rowbatch.table', table);
  const dots = a.storage('rowbatch.dots', batchDotsBytes(n, R, slots.length));
  const out = a.storage('rowbatch.out', layout.floats * 4);
  const kscale = a.storage('rowbatch.kscale', Math.max(1, V) * ns * 16);
  const projected = b.projected ?? [];
  if (projected.length) encodeProjectedFeatures(ctx, featuresEncoder, b, projected, kscale, ns);
  const direct = b.direct ?? [];
  if (direct.length) encodeDirectFeatures(ctx, featuresEncoder, b, direct, kscale, ns);
  // each entry point's own bindings (auto layouts)
  const dotsEntries = { 0: uniform, 1: b.feats, 2: tableBuf, 3: b.rowList, 4: dots };
  const reduceEntries = { 0: uniform, 2: tableBuf, 3: b.rowList, 4: dots, 5: out, 6: kscale };
  // a short row list: one row per invocation instead of the 8-row block (7/8 of it clamped duplicates at R = 1)
  const thin = R <= THIN_ROWS;
  const dotsPl = ctx.pipelines.pipeline('attention-row-list-batch', BATCH_SOURCE, thin ? 'rowDotsThin' : 'rowDots');
  const reducePl = ctx.pipelines.pipeline('attention-row-list-batch', BATCH_SOURCE, 'rowReduce');
  let pass = encoder.beginComputePass(ctx.timer.pass('row-batch.dots'));
  pass.setPipeline(dotsPl);
  pass.setBindGroup(0, bindAt(ctx.device, dotsPl, dotsEntries, 'row-batch.dots'));
  pass.dispatchWorkgroups(Math.ceil(((thin ? R : Math.ceil(R / 8)) * k8) / WG), slots.length);
  pass.end();
  pass = encoder.beginComputePass(ctx.timer.pass('row-batch.reduce'));
  pass.setPipeline(reducePl);
  pass.setBindGroup(0, bindAt(ctx.device, reducePl, reduceEntries, 'row-batch.reduce'));
  pass.dispatchWorkgroups(Math.ceil((V * R) / RWG));
  pass.end();
  if (b.topMass) {
    // the dots are dead once reduced: their rows (8⌈n/8⌉ floats each) are the selection's work rows
    const tm = new Uint32Array([
      n,
      b.causal ? 1 : 0,
      R,
      V + 1,
      layout.levels,
      layout.rowsBase,
      layout.massBase,
      4 * ns,
    ]);
    const tmPl = ctx.pipelines.pipeline('attention-row-top-mass', TOP_MASS_SOURCE, 'rowTopMass');
    const entries = { 0: a.uniform('rowbatch.tm.u', new Uint8Array(tm.buffer)), 1: b.rowList, 2: out, 3: dots };
    pass = encoder.beginComputePass(ctx.timer.pass('row-batch.top-mass'));
    pass.setPipeline(tmPl);
    pass.setBindGroup(0, bindAt(ctx.device, tmPl, entries, 'row-batch.top-mass'));
    pass.dispatchWorkgroups(Math.ceil(((V + 1) * R) / RWG));
    pass.end();
  }
  return out;
}

/** The features pass ('row-batch.features') of the projected slots: φ̃ into feats, the keys' log-scales into kscale. */
function encodeProjectedFeatures(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  b: RowListBatch,
  projected: readonly ProjectedSlot[],
  kscale: GPUBuffer,
  ns: number,
): void {
  const ratio = new Float32Array(1);
  const ratioBits = new Uint32Array(ratio.buffer);
  // 4 rows per invocation; the slots that project first, then (a second pass) those reading their u
  const groups = Math.ceil(Math.ceil((b.rowCount + b.n) / 4) / WG);
  const leaders = projected.filter((ps) => ps.uFrom === undefined);
  const followers = projected.filter((ps) => ps.uFrom !== undefined);
  [leaders, followers].forEach((part, pass) => {
    if (!part.length) return;
    const table = new Uint32Array(part.length * FEATURES_ENTRY);
    part.forEach((ps, g) => {
      const s = b.slots[ps.slot]!;
      ratio[0] = ps.ratio;
      const flags =
        (ps.queryHyper ? 1 : 0) |
        (ps.queryNorm ? 2 : 0) |
        (ps.keyHyper ? 4 : 0) |
        (ps.keyNorm ? 8 : 0) |
        (ps.slot << 8);
      table.set(
        [s.qOff, s.kOff, s.m4, ps.m, ps.wOff, ratioBits[0]!, 0, flags, ...uRows(b, ps.slot, ps.uFrom)],
        FEATURES_ENTRY * g,
      );
    });
    featuresPass(ctx, encoder, b, 'rowFeatures', table, kscale, ns, [groups, part.length], pass === 1);
  });
}

/** The direct features pass ('row-batch.direct'): φ of the direct slots into feats, their keys' log-scales into kscale. */
function encodeDirectFeatures(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  b: RowListBatch,
  direct: readonly DirectSlot[],
  kscale: GPUBuffer,
  ns: number,
): void {
  const table = new Uint32Array(direct.length * FEATURES_ENTRY);
  const bits = new Float32Array(2);
  const bitsU = new Uint32Array(bits.buffer);
  direct.forEach((ds, g) => {
    const s = b.slots[ds.slot]!;
    bits[0] = ds.ratio;
    bits[1] = ds.a;
    const flags = DIRECT_MAPS.indexOf(ds.map) | (ds.causal ? 0x100 : 0) | (ds.slot << 16);
    table.set(
      [s.qOff, s.kOff, s.m4, ds.m, ds.wOff, bitsU[0]!, bitsU[1]!, flags, ...uRows(b, ds.slot, ds.uFrom)],
      FEATURES_ENTRY * g,
    );
  });
  // 1 row per invocation
  const groups = Math.ceil((b.rowCount + b.n) / WG);
  featuresPass(ctx, encoder, b, 'rowFeaturesDirect', table, kscale, ns, [groups, direct.length]);
}

/**
 * One pass of attention-row-list-features.wgsl: its uniform (n, R, the exact slot's Q and K, d4, ns,
 * d^{-1/4}, d), the entry point's table, the projection scratch, kscale (and the row list for the
 * direct entry, whose cosformer reads the query positions).
 */
function featuresPass(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  b: RowListBatch,
  entry: 'rowFeatures' | 'rowFeaturesDirect',
  table: Uint32Array,
  kscale: GPUBuffer,
  ns: number,
  [x, y]: [number, number],
  /** a second rowFeatures pass (the followers): its own table buffer, so the first's is not overwritten */
  second = false,
): void {
  const exact = b.slots[b.slots.length - 1]!;
  const buf = new ArrayBuffer(32);
  const u = new Uint32Array(buf);
  u.set([b.n, b.rowCount, exact.qOff, exact.kOff, Math.ceil(b.d / 4), ns]);
  new Float32Array(buf)[6] = Math.pow(b.d, -0.25);
  u[7] = b.d;
  const a = ctx.alloc;
  const isDirect = entry === 'rowFeaturesDirect';
  const entries: Record<number, GPUBuffer> = {
    0: a.uniform('rowbatch.f.u', new Uint8Array(buf)),
    1: b.feats,
    2: a.upload(isDirect ? 'rowbatch.d.table' : second ? 'rowbatch.f2.table' : 'rowbatch.f.table', table),
    3: a.storage('rowbatch.proj', (b.featsVec4s ?? 1) * 16),
    4: kscale,
  };
  if (isDirect) entries[5] = b.rowList;
  const label = isDirect ? 'row-batch.direct' : 'row-batch.features';
  const pl = ctx.pipelines.pipeline('attention-row-list-features', FEATURES_SOURCE, entry);
  const pass = encoder.beginComputePass(ctx.timer.pass(label));
  pass.setPipeline(pl);
  pass.setBindGroup(0, bindAt(ctx.device, pl, entries, label));
  pass.dispatchWorkgroups(x, y);
  pass.end();
}
