import { describe, expect, it } from 'vitest';
import type { FeatureVariant, RowProblem } from '../core/analysis-backend';
import { DEFAULT_PARAMS } from '../core/default-params';
import { generateInputs } from '../core/inputs';
import type { FeatureMapKind, Stabilizer } from '../core/types';
import { planRowBatch, type RowBatchChoices } from './row-batch-plan';

const p = { ...DEFAULT_PARAMS, n: 13, d: 6, m: 5 };
const inputs = generateInputs(p);
const problem = (causal: boolean): RowProblem => ({ q: inputs.q, k: inputs.k, rows: [0, 4, 9], causal });
const variant = (map: FeatureMapKind, stabilizer: Stabilizer = 'shift', keyMap?: FeatureMapKind): FeatureVariant => ({
  map,
  w: inputs.w,
  stabilizer,
  ...(keyMap ? { keyMap } : {}),
});
const all: RowBatchChoices = { projection: true, direct: true, cpuFeatures: true };

describe('planRowBatch', () => {
  it('forms the exp maps from their projection, the other maps but hedgehog from the rows, and the rest from the twins', () => {
    const maps: FeatureMapKind[] = ['positive', 'trig', 'relu', 'elu1', 'cosformer', 'taylor2', 'oprf', 'hedgehog'];
    const plan = planRowBatch(
      problem(false),
      maps.map((m) => variant(m)),
      all,
    );
    expect(plan.source).toEqual(['projection', 'direct', 'direct', 'direct', 'direct', 'direct', 'direct', 'twins']);
    expect(plan.directSlots.map((s) => s.map)).toEqual(['trig', 'relu', 'elu1', 'cosformer', 'taylor2', 'oprf']);
    // GPU-written slots (projection and direct) carry the keys' log-scales; the twins' do not
    expect(plan.slots.slice(0, maps.length).map((s) => !!s.scaled)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it("keeps the 'ref' stabilizer's oprf and exp maps off the GPU's shifted paths (ε does not cancel), and a variant with another key map off the direct one", () => {
    const plan = planRowBatch(
      problem(true),
      [variant('oprf', 'ref'), variant('positive', 'ref'), variant('trig', 'ref'), variant('trig', 'shift', 'relu')],
      { ...all, cpuFeatures: false },
    );
    // trig has no ε: its direct φ is the same under either stabilizer
    expect(plan.source).toEqual(['kernels', 'kernels', 'direct', 'kernels']);
  });

  it('without direct (the A/B), the direct maps go back to the twins or the feature kernels', () => {
    const v = [variant('elu1'), variant('trig')];
    expect(planRowBatch(problem(false), v, { ...all, direct: false }).source).toEqual(['twins', 'twins']);
    expect(planRowBatch(problem(false), v, { projection: true, direct: false, cpuFeatures: false }).source).toEqual([
      'kernels',
      'kernels',
    ]);
  });

  it("lays W rows after the slots for the projection maps, the column offsets of double-softmax's bidirectional keys only", () => {
    const d4 = Math.ceil(p.d / 4);
    const bi = planRowBatch(problem(false), [variant('trig'), variant('double-softmax'), variant('elu1')], all);
    const [trig, ds, elu] = bi.directSlots;
    expect(trig!.wOff).toBe(bi.laid.vec4s);
    expect(trig!.m).toBe(p.m);
    expect(ds!.wOff).toBe(bi.laid.vec4s + p.m * d4);
    expect([...bi.aux.keys()]).toEqual([ds!.wOff]);
    expect(elu!.m).toBe(0);
    expect(bi.vec4s).toBe(bi.laid.vec4s + p.m * d4 + d4);
    // causal double-softmax keys: one shift per row (a log-scale), no column offsets
    const causal = planRowBatch(problem(true), [variant('double-softmax')], all);
    expect(causal.aux.size).toBe(0);
    expect(causal.directSlots[0]!.causal).toBe(true);
    expect(causal.vec4s).toBe(causal.laid.vec4s);
  });

  it("passes OPRF's A for this problem, and 0 for the other maps", () => {
    const plan = planRowBatch(problem(false), [variant('oprf'), variant('relu')], all);
    expect(plan.directSlots[0]!.a).toBeLessThan(0);
    expect(plan.directSlots[0]!.a).toBe(plan.mapParam('oprf'));
    expect(plan.directSlots[1]!.a).toBe(0);
  });

  it('packs each W matrix once; the first projected slot with a W projects, and the later projected slots, trig and relu take its u (not oprf, not another W)', () => {
    const d4 = Math.ceil(p.d / 4);
    const other = { ...inputs.w, data: inputs.w.data.slice() };
    const plan = planRowBatch(
      problem(false),
      [
        variant('trig'),
        variant('hyperbolic'),
        variant('relu'),
        variant('oprf'),
        variant('positive'),
        { ...variant('trig'), w: other },
      ],
      all,
    );
    const [hyperbolic, positive] = plan.projected;
    const [trig, relu, oprf, trigOther] = plan.directSlots;
    // one copy of the shared W, one of the other
    expect(hyperbolic!.wOff).toBe(plan.laid.vec4s);
    expect([positive!.wOff, trig!.wOff, relu!.wOff, oprf!.wOff]).toEqual(Array(4).fill(hyperbolic!.wOff));
    expect(trigOther!.wOff).toBe(plan.laid.vec4s + p.m * d4);
    expect(plan.vec4s).toBe(plan.laid.vec4s + 2 * p.m * d4);
    // what the host uploads: each matrix once, at the offset its slots read
    expect([...plan.weights]).toEqual([
      [inputs.w, hyperbolic!.wOff],
      [other, trigOther!.wOff],
    ]);
    // the first projected slot with that W projects (variant 1, hyperbolic), whatever the variants' order;
    // the later projected one and trig, relu read its u
    expect([hyperbolic!.uFrom, positive!.uFrom]).toEqual([undefined, 1]);
    expect([trig!.uFrom, relu!.uFrom, oprf!.uFrom, trigOther!.uFrom]).toEqual([1, 1, undefined, undefined]);
    // without the projection path there is nothing to follow
    const noProjection = planRowBatch(problem(false), [variant('positive'), variant('trig')], {
      ...all,
      projection: false,
    });
    expect(noProjection.directSlots[0]!.uFrom).toBeUndefined();
  });
});
