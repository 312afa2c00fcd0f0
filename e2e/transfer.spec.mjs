// The transfer experiment end to end (issue 15): a `train=…_transfer.1…&run=1` link trains softmax,
// swaps it to FAVOR+ and Hedgehog (fitted too), fine-tunes beside from-scratch runs on the CPU
// twins, and the panel shows the step-0 numbers, the curves per map and the softmax heads'
// concentration. Run: node e2e/run.mjs transfer
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
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
