// A whole training step of the tiny transformer on WebGPU (SwiftShader) against the CPU twins, on
// small seeded configs (causal; softmax with MLP, token shift and a tied head; FAVOR+ with a width-3
// conv and a separate head; the gradients of Hedgehog, Taylor-2, bidirectional ReLU and a windowed
// bidirectional cosFormer too): (1) one batch's loss and every parameter's
// gradient; (2) a few optimizer steps of both trainers — the losses, every parameter, the held-out
// evaluation and the attention maps; (3) two GPU
// runs of one seed give bit-identical losses; (4) the transfer experiment's Hedgehog fit on WebGPU
// tracks the CPU fit (held-out KL before and after, the KL of every step, the fitted Wh, bh; causal
// with 2 layers, bidirectional with m odd) and a second GPU fit repeats it bit for bit. Prints the per-tensor tables and the steps/s of each
// backend. Driver: e2e/pages/train-step.ts.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const task = { kind: 'mqar', pairs: 2, seqLen: 16, vocab: 32, maskRate: 0 };
const optimizer = { lr: 3e-3, beta1: 0.9, beta2: 0.98, eps: 1e-8, weightDecay: 0.1, warmup: 2, clip: 1 };
const model = (over) => ({
  vocab: 32,
  seqLen: 16,
  dModel: 16,
  heads: 2,
  layers: 2,
  mlp: true,
  tied: true,
  causal: true,
  attention: { kind: 'softmax' },
  shortConv: 'shift',
  ...over,
});
const cfg = (over) => ({ model: model(over), task, optimizer, batch: 4, steps: 20, evalEvery: 3, seed: 7 });

const CONFIGS = {
  softmax: cfg({}),
  positive: cfg({
    attention: { kind: 'linear', map: 'positive', m: 8, proj: 'orthogonal-chi', redraw: 0, window: 0 },
    shortConv: 'conv3',
    tied: false,
    mlp: false,
    layers: 1,
  }),
  hedgehog: cfg({
    attention: { kind: 'linear', map: 'hedgehog', m: 4, proj: 'iid', redraw: 0, window: 0 },
    shortConv: 'none',
  }),
  // gradients only: the remaining maps, bidirectional and Su's local window
  taylor2: cfg({ attention: { kind: 'linear', map: 'taylor2', m: 1, proj: 'iid', redraw: 0, window: 0 }, layers: 1 }),
  cosformerWindow: cfg({
    attention: { kind: 'linear', map: 'cosformer', m: 1, proj: 'iid', redraw: 0, window: 4 },
    causal: false,
    layers: 1,
  }),
  reluBidirectional: cfg({
    attention: { kind: 'linear', map: 'relu', m: 1, proj: 'iid', redraw: 0, window: 0 },
    causal: false,
    layers: 1,
  }),
};

// The Hedgehog fit, GPU vs CPU: FIT_STEPS steps at the runner's FIT_LR. A row's KL is a sum of
// ≤ L = 16 terms P (log P − log Â) with |log| ≲ 5, each off by ~6e-8 relative in f32 (GPU) vs f64
// sums over f32 storage (CPU): ≤ ~5e-6 absolute per row, ≤ 4e-5 of the mean KL (≈ 0.15) even if
// every row erred the same way, so FIT_KL_RTOL = 1e-4 (measured: ≤ 1.2e-7). A fitted entry moves
// ≈ lr per step whatever its gradient's size, so a sign flip of a rounding-noise gradient would show
// as ~lr: FIT_PARAM_ATOL is 1 % of one step (measured: ≤ 1.5e-7), and all but 0.5 % of entries stay
// within 1 % of lr·steps.
const FIT_STEPS = 6;
// the causal 2-layer Hedgehog model above, and a bidirectional one with an odd m
const FIT_CONFIGS = {
  causal: CONFIGS.hedgehog,
  bidirectional: cfg({
    attention: { kind: 'linear', map: 'hedgehog', m: 3, proj: 'iid', redraw: 0, window: 0 },
    shortConv: 'none',
    causal: false,
    layers: 1,
    mlp: false,
  }),
};
const FIT_KL_RTOL = 1e-4;
const FIT_PARAM_ATOL = 1e-4;

// gradients: f32 sums in a different order than the twin's; relative to the tensor's largest entry
const GRAD_RTOL = 2e-3;
const GRAD_ATOL = 1e-7;

test(
  'GPU model step: loss and every gradient match the CPU twin; a few optimizer steps agree; one seed gives identical loss bits; the Hedgehog fit on WebGPU tracks the CPU fit',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/train-step.html`);
    await page.waitForFunction(() => window.trainStep, null, { timeout: 60_000 });
    log(`adapter: ${(await page.evaluate(() => window.trainStep.info())).adapter}`);
    const bad = [];
    for (const [name, c] of Object.entries(CONFIGS)) {
      const r = await page.evaluate((x) => window.trainStep.grads(x), c);
      log(
        `${name}: loss gpu ${r.loss[0].toFixed(6)} cpu ${r.loss[1].toFixed(6)}; correct ${r.correct}; count ${r.count}; gpu step ${r.ms.toFixed(0)} ms`,
      );
      if (!(Math.abs(r.loss[0] - r.loss[1]) <= 1e-5 * Math.abs(r.loss[1]) + 1e-6)) bad.push({ name, loss: r.loss });
      if (r.correct[0] !== r.correct[1] || r.count[0] !== r.count[1])
        bad.push({ name, correct: r.correct, count: r.count });
      for (const t of r.rows) {
        const ok = t.maxAbs <= GRAD_RTOL * t.scale + GRAD_ATOL;
        log(
          `  ${ok ? '✓' : '✗'} d${t.name.padEnd(10)} n ${String(t.n).padStart(5)}  max |g| ${t.scale.toExponential(2)}  max abs err ${t.maxAbs.toExponential(1)}  rel ${t.rel.toExponential(1)}`,
        );
        if (!ok) bad.push({ name, grad: t });
      }
    }

    for (const name of ['softmax', 'positive']) {
      const k = 3;
      const r = await page.evaluate(([x, n]) => window.trainStep.steps(x, n), [CONFIGS[name], k]);
      for (const l of r.losses) {
        log(
          `${name} step ${l.step}: loss gpu ${l.gpu.toFixed(6)} cpu ${l.cpu.toFixed(6)}  ‖g‖ gpu ${l.gpuNorm.toFixed(5)} cpu ${l.cpuNorm.toFixed(5)}`,
        );
        if (!(Math.abs(l.gpu - l.cpu) <= 1e-4 * Math.abs(l.cpu))) bad.push({ name, step: l });
      }
      log(
        `${name} steps/s (B 4, L 16, D 16, ${CONFIGS[name].model.layers} layer(s), steps 2–${k}): webgpu ${r.rate.webgpu.toFixed(2)}, cpu ${r.rate.cpu.toFixed(1)}`,
      );
      log(`${name} eval: gpu ${JSON.stringify(r.eval.gpu)} cpu ${JSON.stringify(r.eval.cpu)}`);
      if (!(Math.abs(r.eval.gpu.loss - r.eval.cpu.loss) <= 1e-4 * r.eval.cpu.loss)) bad.push({ name, eval: r.eval });
      const worstMap = Math.max(...r.maps.map((m) => m.maxAbs));
      log(`${name} attention maps (${r.maps.length} layer×head, L×L): max abs diff ${worstMap.toExponential(1)}`);
      if (!(r.maps.length > 0 && worstMap <= 1e-4)) bad.push({ name, maps: r.maps });
      for (const snap of r.snapshots) {
        // Adam moves an entry by ≈ lr per step whatever its gradient's size, so an entry whose
        // gradient is rounding noise on both sides (softmax's b_K: a constant added to every score of
        // a row changes nothing) may move either way. Every entry stays within Adam's reach of the
        // twin (3·lr per step), and all but 0.5 % agree to 1 % of a step.
        let over = 0;
        let total = 0;
        for (const t of snap.rows) {
          over += t.over;
          total += t.n;
          if (!(t.maxAbs <= 3 * r.lr * snap.step + 1e-6)) bad.push({ name, step: snap.step, param: t });
        }
        const worst = snap.rows.reduce((a, t) => (t.maxAbs > a.maxAbs ? t : a));
        log(
          `${name} after ${snap.step} step(s): ${over} of ${total} entries differ by > 0.01·lr·steps; worst ${worst.name} ${worst.maxAbs.toExponential(1)} (${(worst.maxAbs / r.lr).toFixed(3)} lr)`,
        );
        if (!(over <= 0.005 * total)) bad.push({ name, step: snap.step, over, total });
      }
    }

    const runs = await page.evaluate((x) => window.trainStep.determinism(x, 2), { ...CONFIGS.positive, evalEvery: 0 });
    log(`determinism (positive, 2 steps): ${runs.map((b) => b.map((x) => x.toString(16)).join(' ')).join(' | ')}`);
    assert.deepEqual(runs[0], runs[1], 'two GPU runs of one seed give identical loss bits');

    // (4) the Hedgehog fit: GPU vs CPU from one teacher (src/gpu/train/hedgehog-fit.ts)
    const t0 = Date.now();
    const k = FIT_STEPS;
    for (const [name, c] of Object.entries(FIT_CONFIGS)) {
      const f = await page.evaluate(([x, n, t]) => window.trainStep.fit(x, n, t), [c, k, 15]);
      const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
      log(
        `hedgehog fit (${name}) held-out KL before: gpu ${f.before.gpu.toFixed(7)} cpu ${f.before.cpu.toFixed(7)} (rel ${rel(f.before.gpu, f.before.cpu).toExponential(1)}); after ${k} steps: gpu ${f.after.gpu.toFixed(7)} cpu ${f.after.cpu.toFixed(7)} (rel ${rel(f.after.gpu, f.after.cpu).toExponential(1)})`,
      );
      if (!(rel(f.before.gpu, f.before.cpu) <= FIT_KL_RTOL)) bad.push({ fit: 'before', ...f.before });
      if (!(rel(f.after.gpu, f.after.cpu) <= FIT_KL_RTOL)) bad.push({ fit: 'after', ...f.after });
      if (!(f.after.cpu < f.before.cpu)) bad.push({ fit: 'the CPU fit lowered the KL', ...f.after });
      for (const l of f.losses) {
        log(
          `  fit step ${l.step}: KL gpu ${l.gpu.toFixed(7)} cpu ${l.cpu.toFixed(7)} (rel ${rel(l.gpu, l.cpu).toExponential(1)})`,
        );
        if (!(rel(l.gpu, l.cpu) <= FIT_KL_RTOL)) bad.push({ fit: 'step', ...l });
      }
      for (const t of f.rows) {
        const ok = t.maxAbs <= FIT_PARAM_ATOL && t.over <= 0.005 * t.n;
        log(
          `  ${ok ? '✓' : '✗'} fitted ${t.name.padEnd(10)} n ${String(t.n).padStart(4)}  max abs diff ${t.maxAbs.toExponential(1)} (${(t.maxAbs / f.lr).toFixed(4)} lr); ${t.over} entries > 0.01·lr·steps`,
        );
        if (!ok) bad.push({ fit: 'param', t });
      }
      if (!f.others) bad.push({ fit: 'a non-Hedgehog tensor moved' });
      if (!f.repeat) bad.push({ fit: 'a second GPU fit differs in its bits' });
      log(
        `hedgehog fit (${name}) ms per step (B 4, L 16, ${c.model.layers} layer(s) × 2 heads, m ${c.model.attention.m}; steps 2–${k}): webgpu ${f.perStep.webgpu.toFixed(1)}, cpu ${f.perStep.cpu.toFixed(1)}; a second GPU fit repeats the bits: ${f.repeat}`,
      );
    }
    log(`hedgehog fit checks: ${Date.now() - t0} ms`);

    assert.deepEqual(bad, [], 'every loss, gradient and parameter within tolerance');
  },
  { timeout: 120_000 },
);
