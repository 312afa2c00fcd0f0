/**
 * Dev script: trains the default MQAR comparison (or a variant, or lm / mlm with "taskKind") on the CPU twins and prints the
 * final held-out accuracy per attention kind and seed, with steps and wall time.
 * Run (no extra dependency: rolldown ships with Vite):
 *   npx rolldown scripts/train-cpu.ts --file /tmp/train-cpu.mjs --platform node && node /tmp/train-cpu.mjs '<json>'
 * <json> (all optional): { "kinds": ["softmax","elu1","positive"], "seeds": [1,2,3], "steps": 600,
 *   "lr": 0.003, "model": {…ModelConfig overrides}, "task": {…}, "batch": 32 }
 */
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
  m?: number;
  batch?: number;
  evalEvery?: number;
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

async function main(): Promise<void> {
  for (const kind of args.kinds ?? ['softmax', 'elu1', 'positive']) {
    const accs: number[] = [];
    for (const seed of args.seeds ?? [1, 2, 3]) {
      const base = defaultTrainConfig(args.taskKind ?? 'mqar', spec(kind));
      const cfg: TrainConfig = {
        ...base,
        model: { ...base.model, ...args.model, attention: spec(kind) },
        task: { ...base.task, ...args.task },
        optimizer: { ...base.optimizer, ...args.optimizer, ...(args.lr ? { lr: args.lr } : {}) },
        batch: args.batch ?? base.batch,
        steps: args.steps ?? base.steps,
        evalEvery: args.evalEvery ?? base.evalEvery,
        seed,
      };
      const t0 = performance.now();
      const tr = createCpuTrainer(cfg);
      const curve: string[] = [];
      let last = 0;
      let lastLoss = 0;
      for (let s = 0; s < cfg.steps; s++) {
        const r = await tr.step();
        if (r.evalAccuracy !== undefined) {
          curve.push(`${r.step}:${r.evalAccuracy.toFixed(2)}`);
          last = r.evalAccuracy;
          lastLoss = r.evalLoss ?? 0;
        }
      }
      const sec = (performance.now() - t0) / 1000;
      accs.push(last);
      console.log(
        `${attentionLabel(cfg.model.attention)} seed ${seed} lr ${cfg.optimizer.lr} steps ${cfg.steps}: acc ${last.toFixed(3)} loss ${lastLoss.toFixed(3)} ` +
          `(${sec.toFixed(1)} s, ${((sec / cfg.steps) * 1000).toFixed(0)} ms/step) ${curve.join(' ')}`,
      );
    }
    const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
    console.log(
      `== ${kind}: mean ${mean.toFixed(3)} min ${Math.min(...accs).toFixed(3)} max ${Math.max(...accs).toFixed(3)}`,
    );
  }
}

void main();
