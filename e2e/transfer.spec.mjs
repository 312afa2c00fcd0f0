// The transfer experiment end to end (issue 15): a `train=…_transfer.1…&run=1` link trains softmax,
// swaps it to FAVOR+ and Hedgehog (fitted too), fine-tunes beside from-scratch runs on the CPU
// twins, and the panel shows the step-0 numbers, the curves per map and the softmax heads'
// concentration; and a tiny run on the WebGPU trainer whose step-0 numbers are the CPU twin's
// evaluation of the swapped weights. Run: node e2e/run.mjs transfer
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { injectAxe } from './axe.mjs';
import { test } from './harness.mjs';

const TINY =
  'task.mqar_pairs.2_L.16_kinds.positive+hedgehog_d.16_h.1_layers.1_batch.4_seeds.2_m.8_steps.40_transfer.1_tune.20_fit.10';
const OTHERS = 'hide=main,error,sparsity,rank,feature-maps,beyond,speed&n=64&d=8&m=16';

test(
  'train=…_transfer.1&run=1 on the CPU twins: step-0 accuracy per map and role, fine-tune / scratch / fitted curves to step 20, head entropy; axe finds no violations',
  async ({ page, appUrl, artifacts }) => {
    await page.goto(`${appUrl}/?train=${TINY}&run=1&backend=cpu&${OTHERS}`);
    await page.waitForSelector('[data-training-status="done"]', { timeout: 20_000 });
    const metric = (m, run, role, attr = 'data-value') =>
      page.getAttribute(`[data-metric="${m}"][data-run="${run}"][data-role="${role}"]`, attr);
    for (const [run, roles] of [
      ['positive', ['finetune', 'scratch']],
      ['hedgehog', ['finetune', 'scratch', 'fitted']],
    ]) {
      for (const role of roles) {
        const z = Number(await metric('transfer-step0-accuracy', run, role));
        assert.ok(z >= 0 && z <= 1, `${run} ${role}: a step-0 accuracy in [0, 1] (${z})`);
        assert.equal(
          await metric('transfer-final-accuracy', run, role, 'data-step'),
          '20',
          `${run} ${role} reached step 20`,
        );
      }
    }
    const soft = Number(await page.getAttribute('[data-metric="transfer-softmax-accuracy"]', 'data-value'));
    assert.ok(soft >= 0 && soft <= 1, `softmax's held-out accuracy (${soft})`);
    const entropy = Number(await page.getAttribute('[data-metric="transfer-head-entropy"]', 'data-value'));
    assert.ok(entropy > 0, `the softmax head's entropy (${entropy})`);
    // one chart per map, each with a line per role (its data table has one column per series)
    assert.equal((await page.locator('[data-transfer-charts] svg').count()) >= 2, true, 'a chart per map');
    assert.equal(
      await page.locator('[data-metric="transfer-favor-m-accuracy"]').count(),
      4,
      'FAVOR+ at m = 8, 16, 64, 256',
    );
    const kl = page.locator('[data-metric="transfer-fit-kl"][data-run="hedgehog"]');
    assert.ok(
      Number(await kl.getAttribute('data-value')) < Number(await kl.getAttribute('data-before')),
      'the fit lowered the KL',
    );
    // the attention maps: the softmax teacher and the swapped / fitted models at step 0 (4), then after the fine-tune (3)
    assert.deepEqual(
      await page.locator('[data-training-maps]').evaluateAll((els) => els.map((e) => e.dataset.trainingMaps)),
      ['4', '3'],
      'maps at the swap and after the fine-tune',
    );
    assert.equal(await page.locator('[data-action="transfer-weights"]').count(), 6, 'a weights download per run kind');
    await injectAxe(page);
    const v = await page.evaluate(async () =>
      (await window.axe.run('[data-training-transfer]', { resultTypes: ['violations'] })).violations.map(
        (x) => `${x.id} (${x.nodes.length}): ${x.nodes[0]?.target}`,
      ),
    );
    assert.deepEqual(v, [], 'axe on the transfer view');
    const dir = join(artifacts, 'screenshots');
    mkdirSync(dir, { recursive: true });
    await page.locator('[data-training-transfer]').screenshot({ path: join(dir, 'training-transfer.png') });
    await page
      .locator('[data-panel="training"] .training-controls')
      .screenshot({ path: join(dir, 'training-transfer-controls.png') });
  },
  { webgpu: false, timeout: 40_000 },
);

// A tiny transfer experiment on the GPU trainer: one seed, one fine-tune step, no fit, d 8. The
// softmax teacher gets 20 steps (not 1) so that its weights are far from every run's own init: a
// step-0 evaluation of the wrong weights (the init, the scratch run's) then misses by far more than
// the tolerance. On SwiftShader (a CPU) the cost is compiling the kernels, not the steps.
const GPU_TINY =
  'task.mqar_pairs.2_L.16_kinds.positive+hedgehog_d.8_h.1_layers.1_batch.4_seeds.1_m.8_steps.20_transfer.1_tune.1_fit.0';
// f32 sums in another order than the twin's: the step-0 loss agrees to ~1e-6 relative (measured
// 2e-8 … 6e-8 on SwiftShader); an argmax can flip only at a near-tie of two logits, so the accuracy
// may differ by at most one prediction
const LOSS_RTOL = 1e-5;

test(
  'train=…_transfer.1&trainer=webgpu: the run reports webgpu, and each fine-tune run’s step-0 loss and accuracy are the CPU evaluation of the softmax weights swapped to its map',
  async ({ page, appUrl, loadModule, log }) => {
    const t0 = Date.now();
    await page.goto(`${appUrl}/?train=${GPU_TINY}&run=1&trainer=webgpu&${OTHERS}`);
    await page.waitForSelector('[data-training-status="done"]', { timeout: 50_000 });
    const ranMs = Date.now() - t0;
    const st = await page.evaluate(() => {
      const t = window.__performer.getState().training;
      return { backend: t.backend, device: t.device, ran: t.ran, runs: t.runs, step0: t.transfer?.step0 ?? [] };
    });
    assert.equal(st.backend, 'webgpu', `the run trained on WebGPU (${st.device})`);
    assert.equal(await page.getAttribute('[data-train-backend]', 'data-train-backend'), 'webgpu');
    // the softmax teacher's weights as trained on the GPU (the JSON holds every f32 exactly)
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      page.click('[data-action="transfer-weights"][data-run="softmax"][data-role="softmax"]'),
    ]);
    const file = JSON.parse(readFileSync(await dl.path(), 'utf8'));
    const teacher = file.params.map((p) => ({ ...p, data: Float32Array.from(p.data) }));
    const { transferParams, evaluateModel } = await loadModule('/src/core/train/transfer.ts');
    const { transferSpecs } = await loadModule('/src/engine/transfer-setup.ts');
    const { EVAL_BATCHES } = await loadModule('/src/core/train/eval-set.ts');
    const finetunes = transferSpecs(st.ran).filter((s) => s.role === 'finetune');
    assert.deepEqual(
      finetunes.map((s) => s.kind),
      ['positive', 'hedgehog'],
      'a fine-tune run per map',
    );
    for (const s of finetunes) {
      const shown = Number(
        await page.getAttribute(
          `[data-metric="transfer-step0-accuracy"][data-run="${s.kind}"][data-role="finetune"]`,
          'data-value',
        ),
      );
      const gpu = st.step0.find((r) => r.run === s.index);
      assert.ok(gpu, `${s.kind}: a step-0 evaluation`);
      const cpu = evaluateModel(transferParams(teacher, s.config.model, s.seed), s.config);
      // predictions: one per MQAR query, pairs per sequence × batch × EVAL_BATCHES
      const count = st.ran.pairs * st.ran.batch * EVAL_BATCHES;
      log(
        `${s.kind} fine-tune step 0: WebGPU loss ${gpu.loss.toFixed(6)} accuracy ${gpu.accuracy} (shown ${shown}); CPU twin on the swapped weights loss ${cpu.loss.toFixed(6)} accuracy ${cpu.accuracy} (${count} predictions)`,
      );
      const rel = Math.abs(gpu.loss - cpu.loss) / Math.abs(cpu.loss);
      // the scratch run of the same map starts from its own init: the weights a broken swap would evaluate
      const scratch = st.step0.find(
        (r) => r.run === transferSpecs(st.ran).find((x) => x.role === 'scratch' && x.kind === s.kind)?.index,
      );
      const relScratch = Math.abs(scratch.loss - cpu.loss) / Math.abs(cpu.loss);
      log(
        `${s.kind}: loss |Δ| / loss vs the CPU ${rel.toExponential(1)}; the scratch run's step 0 is ${relScratch.toExponential(1)} away`,
      );
      assert.ok(rel <= LOSS_RTOL, `${s.kind}: step-0 loss ${gpu.loss} vs CPU ${cpu.loss}`);
      assert.ok(relScratch > 10 * LOSS_RTOL, `${s.kind}: the check tells the swapped weights from an init`);
      assert.ok(
        Math.abs(gpu.accuracy - cpu.accuracy) <= 1 / count + 1e-12,
        `${s.kind}: step-0 accuracy ${gpu.accuracy} vs CPU ${cpu.accuracy}`,
      );
      assert.ok(Math.abs(shown - gpu.accuracy) < 1e-12, `${s.kind}: the panel shows the run's step-0 accuracy`);
    }
    log(`transfer on WebGPU: done ${ranMs} ms after the page load (${st.device})`);
  },
  { webgpu: true, timeout: 60_000 },
);
