/**
 * Dev script: trains the default MQAR comparison (or a variant, or lm / mlm with "taskKind") on the
 * CPU twins and prints the final held-out accuracy and loss per attention kind, learning rate and
 * seed, with steps and wall time; with several "lrs", each kind's best learning rate (by mean
 * held-out loss for lm/mlm, accuracy for mqar) and its mean ± spread over the seeds.
 * Run (no extra dependency: rolldown ships with Vite):
 *   npx rolldown scripts/train-cpu.ts --file /tmp/train-cpu.mjs --platform node && node /tmp/train-cpu.mjs '<json>'
 * <json> (all optional): { "kinds": ["softmax","elu1","positive"], "seeds": [1,2,3], "steps": 600,
 *   "lr": 0.003 | "lrs": [0.003, 0.01, 0.03], "model": {…ModelConfig overrides}, "task": {…}, "batch": 32,
 *   "evalBatches": 16 (score the final weights on this many held-out batches instead of the trainer's 4),
 *   "json": "/tmp/out.json" (append one JSON line per run) }
 */
import { appendFileSync } from 'node:fs';
import { evalSet, pool } from '../src/core/train/eval-set';
import { drawFeatureW, drawIndex } from '../src/core/train/feature-draws';
import { modelForward } from '../src/core/train/model';
import { makeBatch } from '../src/core/train/tasks/index';
import { attentionLabel, defaultTrainConfig, linearSpec } from '../src/core/train/train-defaults';
import { createCpuTrainer } from '../src/core/train/trainer';
import type { AttentionSpec, TaskKind, TrainConfig, TrainFeatureMap } from '../src/core/train/types';

interface Args {
  /** mqar (default), lm or mlm */
  taskKind?: TaskKind;
  kinds?: string[];
  seeds?: number[];
  steps?: number;
  lr?: number;
  lrs?: number[];
  m?: number;
  batch?: number;
  evalEvery?: number;
  evalBatches?: number;
  json?: string;
  model?: Partial<TrainConfig['model']>;
  task?: Partial<TrainConfig['task']>;
  optimizer?: Partial<TrainConfig['optimizer']>;
}

const args: Args = JSON.parse(process.argv[2] ?? '{}');

function spec(kind: string): AttentionSpec {
  if (kind === 'softmax') return { kind: 'softmax' };
  const [map, w] = kind.split('-w');
  return linearSpec(map as TrainFeatureMap, args.m ?? 32, w ? Number(w) : 0);
}

function config(kind: string, seed: number, lr: number | undefined): TrainConfig {
  const base = defaultTrainConfig(args.taskKind ?? 'mqar', spec(kind));
  return {
    ...base,
    model: { ...base.model, ...args.model, attention: spec(kind) },
    task: { ...base.task, ...args.task },
    optimizer: { ...base.optimizer, ...args.optimizer, ...(lr ? { lr } : {}) },
    batch: args.batch ?? base.batch,
    steps: args.steps ?? base.steps,
    evalEvery: args.evalEvery ?? base.evalEvery,
    seed,
  };
}

/** The final weights on `n` held-out batches (the trainer's 4, then more from the same held-out seed). */
async function heldOut(
  cfg: TrainConfig,
  params: Awaited<ReturnType<ReturnType<typeof createCpuTrainer>['params']>>,
  n: number,
) {
  const batches = evalSet(cfg);
  const seed = batches.length ? (cfg.seed ^ 0x5eed) >>> 0 : 0;
  for (let i = batches.length; i < n; i++) batches.push(makeBatch(cfg.task, cfg.batch, seed, i));
  const w = drawFeatureW(cfg.model, cfg.seed, drawIndex(cfg.model, cfg.steps - 1));
  return pool(batches.map((b) => modelForward(params, cfg.model, b, w)));
}

const stats = (xs: number[]) => ({
  mean: xs.reduce((a, b) => a + b, 0) / xs.length,
  min: Math.min(...xs),
  max: Math.max(...xs),
});

async function main(): Promise<void> {
  const mqar = (args.taskKind ?? 'mqar') === 'mqar';
  const lrs: (number | undefined)[] = args.lrs ?? [args.lr];
  for (const kind of args.kinds ?? ['softmax', 'elu1', 'positive']) {
    const perLr: { lr: number; accs: number[]; losses: number[] }[] = [];
    for (const lr of lrs) {
      const accs: number[] = [];
      const losses: number[] = [];
      let usedLr = 0;
      for (const seed of args.seeds ?? [1, 2, 3]) {
        const cfg = config(kind, seed, lr);
        usedLr = cfg.optimizer.lr;
        const t0 = performance.now();
        const tr = createCpuTrainer(cfg);
        const curve: string[] = [];
        let last = 0;
        let lastLoss = 0;
        for (let s = 0; s < cfg.steps; s++) {
          const r = await tr.step();
          if (r.evalAccuracy !== undefined) {
            curve.push(`${r.step}:${r.evalAccuracy.toFixed(2)}/${(r.evalLoss ?? 0).toFixed(2)}`);
            last = r.evalAccuracy;
            lastLoss = r.evalLoss ?? 0;
          }
        }
        const sec = (performance.now() - t0) / 1000;
        if (args.evalBatches)
          ({ accuracy: last, loss: lastLoss } = await heldOut(cfg, await tr.params(), args.evalBatches));
        tr.dispose();
        accs.push(last);
        losses.push(lastLoss);
        console.log(
          `${attentionLabel(cfg.model.attention)} seed ${seed} lr ${cfg.optimizer.lr} steps ${cfg.steps}: acc ${last.toFixed(3)} loss ${lastLoss.toFixed(3)} ` +
            `(${sec.toFixed(1)} s, ${((sec / cfg.steps) * 1000).toFixed(0)} ms/step) ${curve.join(' ')}`,
        );
        if (args.json)
          appendFileSync(
            args.json,
            JSON.stringify({
              task: cfg.task.kind,
              kind,
              seed,
              lr: cfg.optimizer.lr,
              steps: cfg.steps,
              acc: last,
              loss: lastLoss,
              sec,
            }) + '\n',
          );
      }
      const a = stats(accs);
      const l = stats(losses);
      console.log(
        `== ${kind} lr ${usedLr}: acc ${a.mean.toFixed(3)} (${a.min.toFixed(3)}–${a.max.toFixed(3)}) loss ${l.mean.toFixed(3)} (${l.min.toFixed(3)}–${l.max.toFixed(3)})`,
      );
      perLr.push({ lr: usedLr, accs, losses });
    }
    if (perLr.length > 1) {
      const score = (r: (typeof perLr)[number]) => (mqar ? stats(r.accs).mean : -stats(r.losses).mean);
      const best = perLr.reduce((b, r) => (score(r) > score(b) ? r : b));
      console.log(`=== ${kind} best lr ${best.lr}`);
    }
  }
}

void main();
