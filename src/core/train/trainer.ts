/**
 * The trainer interface both backends implement, and the CPU one (the twins in f32). One step:
 *   batch t = makeBatch(task, B, seed, t);  FAVOR+ W = draw ⌊t/redraw⌋ (feature-draws.ts);
 *   loss, grads = lossAndGrads(…);  clip to the global norm;  lr = lrAt(t);  AdamW (t+1) on every tensor;
 *   evaluate on the fixed held-out set when (t+1) % evalEvery = 0 or at the last step.
 * Everything is a function of the config (seed included), so one config reproduces one run
 * bit-for-bit on one backend (the determinism test pins this for the CPU).
 */
import { adamwStep } from './adamw';
import { clipGrads } from './clip';
import { drawFeatureW, drawIndex } from './feature-draws';
import { evalSet, pool } from './eval-set';
import { attentionMaps, initParams, lossAndGrads, modelForward, type FeatureDraws } from './model';
import { lrAt } from './schedule';
import { checkParamsFit } from './transfer';
import { makeBatch } from './tasks/index';
import type { Batch, ParamTensor, StepRecord, TrainConfig } from './types';

export interface Trainer {
  readonly config: TrainConfig;
  readonly backend: 'cpu' | 'webgpu';
  /** one optimizer step (evaluates when step % evalEvery == 0 or last) */
  step(): Promise<StepRecord>;
  evaluate(): Promise<{ loss: number; accuracy: number }>;
  /** copies */
  params(): Promise<ParamTensor[]>;
  /** [layer][head] L×L, on the first sequence of the example */
  attentionMaps(example: Batch): Promise<Float32Array[][]>;
  dispose(): void;
}

/** Options of a trainer: `initial` starts from these parameters (names and shapes of initParams(cfg.model)) instead of initParams(cfg.model, cfg.seed). */
export interface TrainerOptions {
  initial?: readonly ParamTensor[];
}

export function createCpuTrainer(cfg: TrainConfig, opts: TrainerOptions = {}): Trainer {
  const model = cfg.model;
  if (cfg.task.seqLen > model.seqLen) throw new RangeError('trainer: task seqLen exceeds the model’s');
  if (cfg.task.vocab > model.vocab) throw new RangeError('trainer: task vocab exceeds the model’s');
  if (opts.initial) checkParamsFit(opts.initial, model);
  const params = opts.initial
    ? opts.initial.map((p) => ({ ...p, shape: [...p.shape], data: p.data.slice() }))
    : initParams(model, cfg.seed);
  const m = params.map((p) => new Float32Array(p.data.length));
  const v = params.map((p) => new Float32Array(p.data.length));
  const heldOut = evalSet(cfg);
  let t = 0;
  let drawn = -1;
  let featureW: FeatureDraws = null;
  let disposed = false;

  const draws = (step: number): FeatureDraws => {
    const k = drawIndex(model, step);
    if (k !== drawn) {
      featureW = drawFeatureW(model, cfg.seed, k);
      drawn = k;
    }
    return featureW;
  };

  const evaluateNow = () => pool(heldOut.map((b) => modelForward(params, model, b, draws(Math.max(0, t - 1)))));

  return {
    config: cfg,
    backend: 'cpu',
    async step() {
      if (disposed) throw new Error('trainer: disposed');
      const batch = makeBatch(cfg.task, cfg.batch, cfg.seed, t);
      const r = lossAndGrads(params, model, batch, draws(t));
      const grads = r.grads as Float32Array[];
      const { norm } = clipGrads(grads, cfg.optimizer.clip);
      const lr = lrAt(cfg.optimizer, t, cfg.steps);
      params.forEach((p, i) => adamwStep(p.data, grads[i], m[i], v[i], t + 1, lr, cfg.optimizer, p.decay));
      t++;
      const rec: StepRecord = {
        step: t,
        loss: r.loss,
        accuracy: r.count ? r.correct / r.count : 0,
        lr,
        gradNorm: norm,
      };
      if ((cfg.evalEvery > 0 && t % cfg.evalEvery === 0) || t === cfg.steps) {
        const e = evaluateNow();
        rec.evalLoss = e.loss;
        rec.evalAccuracy = e.accuracy;
      }
      return rec;
    },
    async evaluate() {
      return evaluateNow();
    },
    async params() {
      return params.map((p) => ({ ...p, shape: [...p.shape], data: p.data.slice() }));
    },
    async attentionMaps(example: Batch) {
      const tokens = example.tokens.slice(0, example.seqLen);
      return attentionMaps(params, model, tokens, draws(Math.max(0, t - 1)));
    },
    dispose() {
      disposed = true;
    },
  };
}
