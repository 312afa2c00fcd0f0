import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './default-params';
import {
  createHedgehogTrainer,
  denseLinearAttention,
  hedgehogFeatures,
  hedgehogLossAndGrad,
  hedgehogLearningRate,
  HEDGEHOG_FIT,
} from './hedgehog';
import { evaluateHedgehog, fitHedgehogSync, hedgehogInit, hedgehogProblem } from './hedgehog-fit';
import { generateInputs } from './inputs';
import type { AttentionParams } from './types';

const small: AttentionParams = { ...DEFAULT_PARAMS, n: 24, d: 5, m: 6, scale: 1.2, featureMap: 'hedgehog' };

describe('Hedgehog map φ(x) = [softmax(Wx) ‖ softmax(−Wx)]', () => {
  it('each half of φ(x) is a probability vector (positive, sums to 1)', () => {
    const inp = generateInputs(small);
    const f = hedgehogFeatures(inp.q, hedgehogInit(small));
    expect(f.cols).toBe(2 * small.m);
    for (let i = 0; i < f.rows; i++) {
      for (const off of [0, small.m]) {
        let s = 0;
        for (let r = 0; r < small.m; r++) {
          const v = f.data[i * f.cols + off + r]!;
          expect(v).toBeGreaterThan(0);
          s += v;
        }
        expect(s).toBeCloseTo(1, 5);
      }
    }
  });
});

describe('Hedgehog training', () => {
  for (const causal of [false, true]) {
    it(`the hand-derived gradient ∂L/∂W matches central finite differences (causal ${causal})`, () => {
      const p = { ...small, causal };
      const inp = generateInputs(p);
      const problem = hedgehogProblem(inp.q, inp.k, p.n, causal);
      const w = Float64Array.from(hedgehogInit(p).data);
      const grad = new Float64Array(w.length);
      hedgehogLossAndGrad(problem, w, p.m, grad);
      const h = 1e-6;
      let worst = 0;
      for (let i = 0; i < w.length; i++) {
        const wp = Float64Array.from(w);
        const wm = Float64Array.from(w);
        wp[i] += h;
        wm[i] -= h;
        const fd = (hedgehogLossAndGrad(problem, wp, p.m) - hedgehogLossAndGrad(problem, wm, p.m)) / (2 * h);
        worst = Math.max(worst, Math.abs(fd - grad[i]!) / Math.max(1e-4, Math.abs(fd)));
      }
      expect(worst).toBeLessThan(1e-5);
    });
  }

  it('the loss is the mean cross-entropy −Σ_j A_ij log Â_ij of the rows', () => {
    const inp = generateInputs(small);
    const problem = hedgehogProblem(inp.q, inp.k, small.n, false);
    const w = hedgehogInit(small);
    const ahat = denseLinearAttention(hedgehogFeatures(problem.x, w), hedgehogFeatures(problem.y, w), false);
    let ce = 0;
    for (let i = 0; i < small.n * small.n; i++) ce -= problem.target[i]! * Math.log(ahat[i]!);
    expect(hedgehogLossAndGrad(problem, Float64Array.from(w.data), small.m)).toBeCloseTo(ce / small.n, 6); // Â from float32 features
  });

  it('the learning rate follows the cosine schedule from lr to lrMin', () => {
    expect(hedgehogLearningRate(0)).toBeCloseTo(HEDGEHOG_FIT.lr, 12);
    expect(hedgehogLearningRate(HEDGEHOG_FIT.steps)).toBeCloseTo(HEDGEHOG_FIT.lrMin, 12);
  });

  it('the training loss falls: last step well below the first', () => {
    const { losses, finalLoss } = fitHedgehogSync(small, generateInputs(small), 60);
    expect(finalLoss).toBeLessThan(losses[0]! - 0.05);
    expect(losses[losses.length - 1]!).toBeLessThan(losses[0]!);
  });

  it('the same seed gives the same W bits; another feature seed a different W', () => {
    const a = fitHedgehogSync(small, generateInputs(small), 20).w;
    const b = fitHedgehogSync(small, generateInputs(small), 20).w;
    expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true);
    const c = fitHedgehogSync({ ...small, featureSeed: 2 }, generateInputs(small), 20).w;
    expect(Buffer.from(a.data.buffer).equals(Buffer.from(c.data.buffer))).toBe(false);
  });

  it('the trainer refuses a W whose d differs from the inputs', () => {
    const inp = generateInputs(small);
    const problem = hedgehogProblem(inp.q, inp.k, small.n, false);
    expect(() => createHedgehogTrainer(problem, { rows: 2, cols: 3, data: new Float32Array(6) })).toThrow(/d = 5/);
  });
});

describe('Hedgehog at the defaults (local inputs, n = 256, d = 16, m = 64, s = 1.5)', () => {
  it('the fitted map beats positive random features at equal m′ = 2m on the fitted sequence; held-out is reported', () => {
    const p: AttentionParams = { ...DEFAULT_PARAMS, featureMap: 'hedgehog' };
    const inp = generateInputs(p);
    const t0 = performance.now();
    const fit = fitHedgehogSync(p, inp);
    const ms = performance.now() - t0;
    const ev = evaluateHedgehog(p, inp, fit.w, false);
    console.log(
      `hedgehog defaults: loss ${fit.losses[0]!.toFixed(4)} → ${fit.finalLoss.toFixed(4)} in ${fit.losses.length} steps, ${ms.toFixed(0)} ms;` +
        ` fitted rel err ${ev.fitted.hedgehog.relError.toFixed(4)} (init ${ev.fitted.init.relError.toFixed(4)}, FAVOR+ m'=${ev.featureDim} ${ev.fitted.random.mean.toFixed(4)} ± ${ev.fitted.random.std.toFixed(4)});` +
        ` held-out (seed ${ev.heldOutSeed}) ${ev.heldOut!.hedgehog.relError.toFixed(4)} (init ${ev.heldOut!.init.relError.toFixed(4)}, FAVOR+ ${ev.heldOut!.random.mean.toFixed(4)} ± ${ev.heldOut!.random.std.toFixed(4)})`,
    );
    expect(fit.finalLoss).toBeLessThan(fit.losses[0]!);
    expect(ev.fitted.hedgehog.relError).toBeLessThan(ev.fitted.random.mean);
    expect(ev.heldOut).not.toBeNull();
    expect(Number.isFinite(ev.heldOut!.hedgehog.relError)).toBe(true);
  }, 120_000);
});
