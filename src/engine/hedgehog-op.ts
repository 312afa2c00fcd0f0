/**
 * The Hedgehog fit as an analysis op (run by src/engine/analysis-worker.ts): trains W step by step
 * on the experiment's Q, K (generated from the seed or uploaded), streams the loss curve with its
 * progress (`detail: { losses }`), stops at the next step after a cancel, and ends with the
 * evaluation table (fitted vs held-out, Hedgehog vs positive random features at m' = 2m).
 *
 * How the engine gets W: the result carries `w` and the training `key` (hedgehogKey). The store
 * puts `{ key, w }` into the compute request's `fitted` field (and into analysis payloads for
 * `map=hedgehog`); `fittedMapW` below and `prepareInputs` (compute.ts) read it, so the CPU twin and
 * the GPU path both run on the fitted W. Training is deterministic, so the same link gives the
 * same W bits.
 */
import { EngineError } from '../core/errors';
import { generateInputs } from '../core/inputs';
import { createHedgehogTrainer, HEDGEHOG_FIT, hedgehogLossFloor } from '../core/hedgehog';
import {
  evaluateHedgehog,
  hedgehogInit,
  hedgehogKey,
  hedgehogPositions,
  hedgehogProblem,
  type HedgehogEvaluation,
} from '../core/hedgehog-fit';
import type { AttentionParams, Matrix } from '../core/types';
import { validateParams } from '../core/validate';
import { readExternal } from './external-inputs';

export interface HedgehogFitPayload {
  params: AttentionParams;
  /** id of uploaded data (part of the key) */
  upload?: string | null;
}

/** Progress detail of each training step: the loss curve so far. */
export interface HedgehogProgressDetail {
  losses: number[];
}

export interface HedgehogFitResult {
  key: string;
  /** fitted W, m × d */
  w: Matrix;
  /** loss before each step (length = steps) */
  losses: number[];
  /** loss at the fitted W */
  finalLoss: number;
  /** mean row entropy of A on the fitted positions: the loss floor (loss − floor = mean KL) */
  lossFloor: number;
  steps: number;
  /** positions fitted (the first min(n, 256)) */
  positions: number;
  /** training wall time in the worker, ms */
  trainMs: number;
  evaluation: HedgehogEvaluation;
}

/** The fitted W a payload or request carries: `{ key, w }`. */
export interface FittedW {
  key: string;
  w: Matrix;
}

function readFitted(x: unknown, p: AttentionParams): FittedW {
  const f = x as Partial<FittedW> | null | undefined;
  const w = f?.w;
  if (!f || typeof f.key !== 'string' || !w || !(w.data instanceof Float32Array)) {
    throw new EngineError('invalid-size', 'the Hedgehog map is not fitted yet: train it first (feature-map panel)');
  }
  if (w.rows !== p.m || w.cols !== p.d || w.data.length !== p.m * p.d) {
    throw new EngineError('shape-mismatch', `fitted W is ${w.rows}×${w.cols}, expected m×d = ${p.m}×${p.d}`);
  }
  return f as FittedW;
}

/**
 * W of the experiment's map: the fitted one (from `payload.fitted`) for 'hedgehog', else `w`.
 * Analysis ops call this wherever they use the current map.
 */
export function fittedMapW(payload: unknown, p: AttentionParams, w: Matrix): Matrix {
  if (p.featureMap !== 'hedgehog') return w;
  return readFitted((payload as { fitted?: unknown } | null)?.fitted, p).w;
}

/** The fitted W of a compute request, checked against the request's parameters (training key). */
export function requestFittedW(fitted: unknown, p: AttentionParams): Matrix {
  const f = readFitted(fitted, p);
  if (!f.key.startsWith(hedgehogKey(p))) {
    throw new EngineError('invalid-size', 'the fitted Hedgehog W belongs to other parameters: retrain');
  }
  return f.w;
}

interface OpContext {
  progress(done: number, total: number, label?: string, detail?: unknown): void;
  cancelled(): boolean;
  breathe?(): Promise<void>;
}

export async function hedgehogFit(payload: HedgehogFitPayload, ctx: OpContext): Promise<HedgehogFitResult> {
  const p = payload?.params;
  if (!p) throw new EngineError('invalid-size', 'analysis payload has no params');
  validateParams(p);
  const ext = readExternal(payload);
  const qk = ext ? { q: ext.q, k: ext.k } : generateInputs(p);
  const positions = hedgehogPositions(qk.q.rows);
  const problem = hedgehogProblem(qk.q, qk.k, positions, p.causal);
  const steps = HEDGEHOG_FIT.steps;
  const trainer = createHedgehogTrainer(problem, hedgehogInit(p), steps);
  const total = steps + 1;
  const losses: number[] = [];
  const t0 = performance.now();
  const check = () => {
    if (ctx.cancelled()) throw new EngineError('cancelled', 'cancelled');
  };
  for (let t = 0; t < steps; t++) {
    check();
    losses.push(trainer.step());
    ctx.progress(t + 1, total, 'train', { losses: losses.slice() } satisfies HedgehogProgressDetail);
    if (ctx.breathe) await ctx.breathe();
  }
  const finalLoss = trainer.loss();
  const trainMs = performance.now() - t0;
  check();
  ctx.progress(steps, total, 'evaluate', { losses: losses.slice() } satisfies HedgehogProgressDetail);
  if (ctx.breathe) await ctx.breathe();
  check();
  const w = trainer.weights();
  const evaluation = evaluateHedgehog(p, qk, w, !!ext);
  const lossFloor = hedgehogLossFloor(problem);
  return {
    key: hedgehogKey(p, payload.upload ?? null),
    w,
    losses,
    finalLoss,
    lossFloor,
    steps,
    positions,
    trainMs,
    evaluation,
  };
}
