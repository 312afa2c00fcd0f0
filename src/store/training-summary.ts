/**
 * What the training panel draws, derived from the slice (pure, tested): per attention kind the
 * mean curve over its seeds with the seeds' min–max band, the latest numbers (the step every seed
 * has reached), and the final held-out accuracy and loss (mean ± half the min–max spread). With an
 * LR sweep each kind is represented by its best learning rate (lowest final held-out loss; the
 * training loss when no eval ran), and every (kind, lr) pair is listed in the results.
 */
import type { RunInfo } from '../engine/training-protocol';
import type { TrainKind, TrainTask } from '../engine/training-setup';
import type { RunCurve, TrainingState } from './training';

export interface Band {
  x: number[];
  mean: number[];
  lo: number[];
  hi: number[];
}

export interface KindGroup {
  kind: TrainKind;
  lr: number;
  lrFactor: number;
  /** indices of the runs (one per seed) */
  runs: number[];
  loss: Band;
  accuracy: Band;
  evalAccuracy: Band;
  /** the step every seed has reached, with the mean numbers there */
  latest: { step: number; loss: number; accuracy: number } | null;
  /** last held-out numbers (mean, spread = (max − min) / 2) */
  final: { accuracy: number; accuracySpread: number; loss: number; lossSpread: number; step: number } | null;
  best: boolean;
}

export function band(curves: RunCurve[], x: (c: RunCurve) => number[], y: (c: RunCurve) => number[]): Band {
  const n = Math.min(...curves.map((c) => x(c).length));
  const out: Band = { x: [], mean: [], lo: [], hi: [] };
  if (!curves.length || !Number.isFinite(n)) return out;
  for (let i = 0; i < n; i++) {
    let s = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of curves) {
      const v = y(c)[i];
      s += v;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    out.x.push(x(curves[0])[i]);
    out.mean.push(s / curves.length);
    out.lo.push(lo);
    out.hi.push(hi);
  }
  return out;
}

export function summarize(s: Pick<TrainingState, 'runs' | 'curves'>): KindGroup[] {
  const groups = new Map<string, RunInfo[]>();
  for (const r of s.runs) {
    const key = `${r.kind}|${r.lrFactor}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: KindGroup[] = [];
  for (const runs of groups.values()) {
    const curves = runs.map((r) => s.curves[r.index]).filter((c): c is RunCurve => !!c);
    const loss = band(
      curves,
      (c) => c.steps,
      (c) => c.loss,
    );
    const accuracy = band(
      curves,
      (c) => c.steps,
      (c) => c.accuracy,
    );
    const evalAccuracy = band(
      curves,
      (c) => c.evalSteps,
      (c) => c.evalAccuracy,
    );
    const evalLoss = band(
      curves,
      (c) => c.evalSteps,
      (c) => c.evalLoss,
    );
    const k = loss.x.length - 1;
    const latest = k >= 0 ? { step: loss.x[k], loss: loss.mean[k], accuracy: accuracy.mean[k] } : null;
    const e = evalAccuracy.x.length - 1;
    const final =
      e >= 0
        ? {
            step: evalAccuracy.x[e],
            accuracy: evalAccuracy.mean[e],
            accuracySpread: (evalAccuracy.hi[e] - evalAccuracy.lo[e]) / 2,
            loss: evalLoss.mean[e],
            lossSpread: (evalLoss.hi[e] - evalLoss.lo[e]) / 2,
          }
        : null;
    out.push({
      kind: runs[0].kind,
      lr: runs[0].lr,
      lrFactor: runs[0].lrFactor,
      runs: runs.map((r) => r.index),
      loss,
      accuracy,
      evalAccuracy,
      latest,
      final,
      best: false,
    });
  }
  // per kind, the best learning rate (by final held-out loss, else the latest training loss)
  const score = (g: KindGroup) => g.final?.loss ?? (g.latest ? g.latest.loss : Infinity);
  const kinds = [...new Set(out.map((g) => g.kind))];
  for (const kind of kinds) {
    const of = out.filter((g) => g.kind === kind);
    const best = of.reduce((a, b) => (score(b) < score(a) ? b : a));
    best.best = true;
  }
  return out;
}

/** The best group of each kind, in the comparison's order. */
export function bestPerKind(groups: KindGroup[]): KindGroup[] {
  return groups.filter((g) => g.best);
}

/** Highest and lowest final held-out accuracy among the kinds (for the "why" sentence). */
export function extremes(groups: KindGroup[]): { best: KindGroup; worst: KindGroup } | null {
  const done = bestPerKind(groups).filter((g) => g.final);
  if (done.length < 2) return null;
  const acc = (g: KindGroup) => g.final!.accuracy;
  const best = done.reduce((a, b) => (acc(b) > acc(a) ? b : a));
  // the worst among the others (on a tie the sentence still names two different kinds)
  const worst = done.filter((g) => g !== best).reduce((a, b) => (acc(b) < acc(a) ? b : a));
  return { best, worst };
}

/** A gap smaller than this (in held-out accuracy) is "the kinds end close together". */
export const CLOSE_GAP = 0.05;

/**
 * Which "why" sentence fits the result: `expected` when the kind the papers find better won by more
 * than CLOSE_GAP (softmax on MQAR and MLM, the windowed kind in the local-truncation experiment; any
 * kind on the causal LM, where the papers find the gap small), `close` when the gap is small, `other`
 * when the other side won.
 */
export function whyKind(task: TrainTask, best: KindGroup, worst: KindGroup): 'expected' | 'close' | 'other' {
  const gap = best.final!.accuracy - worst.final!.accuracy;
  if (gap < CLOSE_GAP) return 'close';
  if (task === 'lm') return 'expected';
  if (task === 'local') return best.kind.endsWith('-local') || best.kind === 'softmax' ? 'expected' : 'other';
  return best.kind === 'softmax' ? 'expected' : 'other';
}
