/**
 * What the transfer view draws, derived from the slice (pure, tested): per (role, map) the
 * held-out accuracy curve over its seeds — mean with the seeds' min–max band, starting at step 0
 * (the report's evaluation before the first step) — the step-0 and final numbers (mean ± half the
 * spread), the softmax models' per-head concentration averaged over seeds, FAVOR+'s step-0
 * accuracy per m, and the Hedgehog fits' KL before and after.
 */
import type { HeadConcentration } from '../core/train/transfer';
import type { TransferRole } from '../engine/training-protocol';
import type { TrainKind } from '../engine/training-setup';
import { emptyCurve, type RunCurve, type TrainingState } from './training';
import { band, type Band } from './training-summary';

export interface Spread {
  mean: number;
  lo: number;
  hi: number;
}

export interface TransferGroup {
  role: TransferRole;
  kind: TrainKind;
  runs: number[];
  /** held-out accuracy vs step, step 0 first when the report has it */
  accuracy: Band;
  step0: Spread | null;
  /** the mean held-out loss at step 0 */
  step0Loss: number | null;
  /** the last held-out accuracy every seed has reached, and its step */
  final: (Spread & { step: number }) | null;
}

export interface TransferSummary {
  groups: TransferGroup[];
  /** per layer and head, the mean over seeds */
  concentration: HeadConcentration[];
  favorM: (Spread & { m: number; loss: number })[];
  fits: { kind: TrainKind; before: Spread; after: Spread; steps: number }[];
}

export function spread(xs: readonly number[]): Spread | null {
  if (!xs.length) return null;
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, lo: Math.min(...xs), hi: Math.max(...xs) };
}

export function summarizeTransfer(s: Pick<TrainingState, 'runs' | 'curves' | 'transfer'>): TransferSummary {
  const rep = s.transfer;
  const step0 = new Map((rep?.step0 ?? []).map((x) => [x.run, x]));
  const keyed = new Map<string, number[]>();
  for (const r of s.runs) {
    if (!r.role) continue;
    const key = `${r.role}|${r.kind}`;
    keyed.set(key, [...(keyed.get(key) ?? []), r.index]);
  }
  const groups: TransferGroup[] = [];
  for (const [key, runs] of keyed) {
    const [role, kind] = key.split('|') as [TransferRole, TrainKind];
    const curves: RunCurve[] = runs.map((i) => {
      const c = s.curves[i];
      const z = step0.get(i);
      const base = c ?? emptyCurve();
      return z
        ? {
            ...base,
            evalSteps: [0, ...base.evalSteps],
            evalAccuracy: [z.accuracy, ...base.evalAccuracy],
            evalLoss: [z.loss, ...base.evalLoss],
          }
        : base;
    });
    const accuracy = band(
      curves,
      (c) => c.evalSteps,
      (c) => c.evalAccuracy,
    );
    const n = accuracy.x.length - 1;
    const z = runs.map((i) => step0.get(i)?.accuracy).filter((x): x is number => x !== undefined);
    groups.push({
      role,
      kind,
      runs,
      accuracy,
      step0: z.length === runs.length ? spread(z) : null,
      step0Loss: z.length === runs.length ? spread(runs.map((i) => step0.get(i)!.loss))!.mean : null,
      final:
        n >= 0 && accuracy.x[n] > 0
          ? { mean: accuracy.mean[n], lo: accuracy.lo[n], hi: accuracy.hi[n], step: accuracy.x[n] }
          : null,
    });
  }
  const conc = rep?.concentration ?? [];
  const concentration = (conc[0]?.heads ?? []).map((h, i) => {
    const of = conc.map((c) => c.heads[i]);
    const mean = (f: (x: HeadConcentration) => number) => of.reduce((a, x) => a + f(x), 0) / of.length;
    return {
      layer: h.layer,
      head: h.head,
      entropy: mean((x) => x.entropy),
      uniform: mean((x) => x.uniform),
      top: mean((x) => x.top),
    };
  });
  const ms = [...new Set((rep?.favorM ?? []).map((x) => x.m))].sort((a, b) => a - b);
  const favorM = ms.map((m) => {
    const of = rep!.favorM.filter((x) => x.m === m);
    return { m, ...spread(of.map((x) => x.accuracy))!, loss: spread(of.map((x) => x.loss))!.mean };
  });
  const fitKinds = [...new Set((rep?.fits ?? []).map((f) => s.runs[f.run]?.kind).filter(Boolean))] as TrainKind[];
  const fits = fitKinds.map((kind) => {
    const of = rep!.fits.filter((f) => s.runs[f.run]?.kind === kind);
    return {
      kind,
      before: spread(of.map((f) => f.before))!,
      after: spread(of.map((f) => f.after))!,
      steps: of[0].steps,
    };
  });
  return { groups, concentration, favorM, fits };
}

export function transferGroup(sum: TransferSummary, role: TransferRole, kind: TrainKind): TransferGroup | undefined {
  return sum.groups.find((g) => g.role === role && g.kind === kind);
}
