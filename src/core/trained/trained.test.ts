import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from '../exact-attention';
import { evalSet, pool } from '../train/eval-set';
import { attentionMaps, initParams, modelForward } from '../train/model';
import { createCpuTrainer } from '../train/trainer';
import { decodeParams, encodeParams, f32Bits, fromHalf, toHalf } from './bundle-format';
import { bundledHeads, bundledParams } from './bundle-weights';
import { BUNDLES, bundleShape } from './bundles';
import { bundledConfig, TRAINED_MODELS } from './configs';
import { FAVOR_M, headStats } from './head-stats';
import { exampleTokens, headInputs } from './heads';

describe('f16 weights', () => {
  it('toHalf/fromHalf round trip every f16 value and round to nearest even', () => {
    for (let h = 0; h < 0x7c00; h += 7) {
      expect(toHalf(fromHalf(h))).toBe(h);
      expect(toHalf(-fromHalf(h))).toBe(h | 0x8000);
    }
    expect(toHalf(1 + 2 ** -11)).toBe(toHalf(1)); // a tie rounds to the even mantissa
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(toHalf(1) + 2);
    expect(() => toHalf(70000)).toThrow(RangeError);
  });

  it('encode → decode keeps every weight within f16 rounding (relative 2^-11)', () => {
    const params = initParams(bundledConfig('mqar').model, 3);
    const back = decodeParams(encodeParams(params));
    params.forEach((p, i) => {
      expect(back[i]!.name).toBe(p.name);
      for (let j = 0; j < p.data.length; j++)
        expect(Math.abs(back[i]!.data[j]! - p.data[j]!)).toBeLessThanOrEqual(
          Math.abs(p.data[j]!) * 2 ** -11 + 2 ** -24,
        );
    });
  });
});

describe.each(TRAINED_MODELS)('bundled model %s', (id) => {
  const bundle = BUNDLES[id];

  it('is the config train:bundled trains, and its tensors have initParams’ names and shapes', () => {
    expect(bundle.config).toEqual(bundledConfig(id));
    const init = initParams(bundle.config.model, bundle.config.seed);
    const got = bundledParams(id);
    expect(got.map((p) => [p.name, p.shape])).toEqual(init.map((p) => [p.name, [...p.shape]]));
    expect(bundle.bytes).toBe(2 * bundle.parameters);
  });

  // two steps: init, batch, forward, backward, clipping and AdamW all enter the second step's loss
  // (the grammar model's step takes ~0.6 s on one free core, several on a loaded machine)
  it(
    'rerunning the first 2 steps of train:bundled reproduces the committed log’s losses bit for bit',
    { timeout: 30_000 },
    async () => {
      const tr = createCpuTrainer(bundle.config);
      for (let s = 0; s < 2; s++) expect(f32Bits((await tr.step()).loss)).toBe(bundle.log.lossBits[s]);
    },
  );

  it('the decoded (f16) weights reach the held-out accuracy the log records, within 0.02', () => {
    const cfg = bundle.config;
    const params = bundledParams(id);
    const e = pool(evalSet(cfg).map((b) => modelForward(params, cfg.model, b, null)));
    expect(Math.abs(e.accuracy - bundle.evalAccuracy)).toBeLessThan(0.02);
  });

  it('headInputs: softmax(Q Kᵀ/√dh) of every head is the attention matrix the model itself computes', () => {
    const { model, task } = bundle.config;
    const tokens = exampleTokens(task, 2);
    const params = bundledParams(id);
    const heads = headInputs(params, model, tokens);
    const maps = attentionMaps(params, model, tokens, null);
    const shape = bundleShape(id);
    expect(heads.length).toBe(shape.layers);
    heads.forEach((row, l) =>
      row.forEach((h, hd) => {
        expect([h.q.rows, h.q.cols, h.k.cols, h.v.cols]).toEqual([shape.n, shape.d, shape.d, shape.d]);
        const a = exactAttentionMatrix(h.q, h.k, model.causal).data;
        const want = maps[l]![hd]!;
        let err = 0;
        for (let i = 0; i < a.length; i++) err = Math.max(err, Math.abs(a[i]! - want[i]!));
        expect(err).toBeLessThan(1e-5);
      }),
    );
  });

  it('head stats are finite and in range (entropy ≤ uniform, 1 ≤ eff. rank ≤ n, one error per m)', () => {
    const h = bundledHeads(id, 0)[0]![0]!;
    const s = headStats(h, bundle.config.model.causal);
    expect(s.entropy).toBeGreaterThanOrEqual(0);
    expect(s.entropy).toBeLessThanOrEqual(s.entropyUniform + 1e-9);
    expect(s.effectiveRank).toBeGreaterThanOrEqual(1);
    expect(s.effectiveRank).toBeLessThanOrEqual(h.q.rows);
    expect(s.favorError).toHaveLength(FAVOR_M.length);
    for (const e of s.favorError) expect(Number.isFinite(e) && e > 0).toBe(true);
  });
});

describe('examples', () => {
  it('example tokens are deterministic and reject indices outside 0 … 15', () => {
    const task = bundledConfig('grammar').task;
    expect(exampleTokens(task, 5)).toEqual(exampleTokens(task, 5));
    expect(exampleTokens(task, 5)).not.toEqual(exampleTokens(task, 6));
    expect(() => exampleTokens(task, 16)).toThrow(RangeError);
    expect(() => exampleTokens(task, -1)).toThrow(RangeError);
  });
});
