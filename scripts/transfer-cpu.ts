/**
 * Dev script: runs the transfer experiment (src/engine/transfer-runner.ts) on the CPU twins in Node,
 * through the same runner, reducer and summary as the panel, and prints its numbers: the softmax
 * models' final held-out accuracy and per-head concentration, FAVOR+'s step-0 accuracy per m, and
 * per map the step-0 accuracy, the accuracy after the fine-tune and the from-scratch accuracy
 * (mean, min–max over seeds), the Hedgehog fits' KL. Run (rolldown ships with Vite):
 *   npx rolldown scripts/transfer-cpu.ts --file /tmp/transfer-cpu.mjs --platform node && nice -n 19 node /tmp/transfer-cpu.mjs '<train= value>'
 * The value is parsed onto the default transfer setup (transferSetup('cpu')), e.g. 'seeds.3'.
 */
import { trainStepFlops } from '../src/core/train/flops';
import { createCpuTrainer } from '../src/core/train/trainer';
import { makeBatch } from '../src/core/train/tasks/index';
import { taskConfig } from '../src/engine/training-setup';
import { parseSetup, writeSetup } from '../src/engine/training-setup-url';
import { startTransferSession } from '../src/engine/transfer-runner';
import { transferSetup } from '../src/engine/transfer-setup';
import { applyTrainingMessage, INITIAL_TRAINING, type TrainingState } from '../src/store/training';
import { summarizeTransfer, type Spread } from '../src/store/training-transfer';

const { setup, problems } = parseSetup(process.argv[2] ?? '', transferSetup('cpu'));
if (problems.length) throw new Error(`bad setup: ${JSON.stringify(problems)}`);
let state: TrainingState = { ...INITIAL_TRAINING, id: 1, setup, status: 'starting' };
const t0 = performance.now();
const f = (s: Spread | null) => (s ? `${s.mean.toFixed(3)} (${s.lo.toFixed(3)}–${s.hi.toFixed(3)})` : '—');

const session = startTransferSession(
  1,
  setup,
  { backend: 'cpu', device: 'node', reduced: false },
  {
    createTrainer: async (cfg, initial) => createCpuTrainer(cfg, { initial }),
    stepFlops: (cfg) => trainStepFlops(cfg.model, { batch: cfg.batch, seqLen: cfg.task.seqLen }),
    example: (s) => makeBatch(taskConfig(s), 1, (s.seed ^ 0x0e8a) >>> 0, 0),
    now: () => performance.now(),
    yieldNow: () => Promise.resolve(),
    post: (m) => {
      state = applyTrainingMessage(state, m);
      if (m.type === 'transfer') console.log(`phase 1 done at ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      if (m.type === 'error') console.error(m.error);
    },
    flushMs: 500,
  },
);

void session.finished.then(() => {
  const sum = summarizeTransfer(state);
  console.log(
    `train=${writeSetup(setup)}  (${((performance.now() - t0) / 1000).toFixed(0)} s, status ${state.status})`,
  );
  for (const g of sum.groups) {
    console.log(
      `${g.role.padEnd(8)} ${g.kind.padEnd(9)} step0 ${f(g.step0)}  final@${g.final?.step ?? '—'} ${f(g.final)}`,
    );
    console.log(`         curve ${g.accuracy.x.map((x, i) => `${x}:${g.accuracy.mean[i].toFixed(2)}`).join(' ')}`);
  }
  for (const h of sum.concentration)
    console.log(
      `head L${h.layer}H${h.head}: entropy ${h.entropy.toFixed(3)} nats (uniform ${h.uniform.toFixed(3)}), top ${h.top.toFixed(3)}`,
    );
  for (const x of sum.favorM) console.log(`FAVOR+ step 0 at m ${x.m}: ${f(x)}`);
  for (const x of sum.fits) console.log(`${x.kind} fit ${x.steps} steps: KL ${f(x.before)} → ${f(x.after)}`);
});
