/**
 * The transfer experiment's loop (runs from transfer-setup.ts), with the comparison runner's
 * protocol: `started` (every run, with its role), `steps`, one `transfer` report between the
 * phases, `done`. Phase 1 steps the seeds' softmax runs in turn for `steps` steps. Then, per seed,
 * the softmax model's parameters are swapped into each map's model (transferParams), each phase-2
 * trainer is built — from the swapped parameters (finetune), from the fitted ones (fitted: the
 * Hedgehog fit from `deps.createFit` — the WebGPU fit when the worker trains on WebGPU, else the
 * CPU twins' —, one yield per fit step), or from its own init (scratch) — and
 * evaluated before its first step (step 0). FAVOR+ is also evaluated, swapped, at several m.
 * Phase 2 steps every phase-2 run in turn for `tune` steps. Pause, resume and cancel are handled
 * between two steps (fit steps included), as in training-runner.ts.
 */
import { createHedgehogFit, type HedgehogFitLike } from '../core/train/hedgehog-distill';
import { attentionConcentration, evaluateModel, transferParams } from '../core/train/transfer';
import { evalSet } from '../core/train/eval-set';
import type { ParamTensor, TrainConfig } from '../core/train/types';
import { serializeError } from './serialize-error';
import type { RunInfo, TransferReport } from './training-protocol';
import { createLoop, type RunnerDeps, type TrainerLike, type TrainingSession } from './training-runner';
import { attentionSpec, type TrainingSetup } from './training-setup';
import { TRANSFER_FAVOR_M, transferSpecs, transferTotalSteps } from './transfer-setup';

export interface TransferTrainerLike extends TrainerLike {
  evaluate(): Promise<{ loss: number; accuracy: number }>;
}

export interface TransferDeps extends Omit<RunnerDeps, 'createTrainer'> {
  /** `initial`: start from these parameters (the trainer's `initial` option) */
  createTrainer(cfg: TrainConfig, initial?: readonly ParamTensor[]): Promise<TransferTrainerLike>;
  /**
   * The Hedgehog fit on this backend (createHedgehogFit's arguments; the worker passes
   * createGpuHedgehogFit on WebGPU); default: the CPU twins' createHedgehogFit.
   */
  createFit?: (...args: Parameters<typeof createHedgehogFit>) => Promise<HedgehogFitLike>;
}

/** Learning rate of the Hedgehog fit (AdamW on Wh, bh only, constant). */
export const FIT_LR = 1e-2;

export function startTransferSession(
  id: number,
  setup: TrainingSetup,
  info: { backend: 'cpu' | 'webgpu'; device: string; reduced: boolean },
  deps: TransferDeps,
): TrainingSession {
  const specs = transferSpecs(setup);
  const trainers: (TransferTrainerLike | null)[] = specs.map(() => null);
  const loop = createLoop(id, deps, transferTotalSteps(setup), () => {
    for (const t of trainers) t?.dispose();
    trainers.fill(null);
  });

  async function run(): Promise<void> {
    const flops = specs.map((s) => deps.stepFlops(s.config));
    loop.setFlopsTotal(
      specs.reduce(
        (a, s, i) =>
          a + flops[i] * (s.role === 'softmax' ? setup.steps : setup.tune + (s.role === 'fitted' ? setup.fit : 0)),
        0,
      ),
    );
    const soft = specs.filter((s) => s.role === 'softmax');
    const phase2 = specs.filter((s) => s.role !== 'softmax');
    for (const s of soft) trainers[s.index] = await deps.createTrainer(s.config);
    const runs: RunInfo[] = specs.map((s, i) => ({
      index: s.index,
      role: s.role,
      kind: s.kind,
      seed: s.seed,
      lr: s.lr,
      lrFactor: 1,
      flopsPerStep: flops[i],
    }));
    deps.post({ type: 'started', id, backend: info.backend, device: info.device, setup, reduced: info.reduced, runs });
    loop.begin();
    if (
      !(await loop.stepAll(
        soft.map((s) => ({ run: s.index, trainer: trainers[s.index]!, flops: flops[s.index] })),
        setup.steps,
      ))
    )
      return loop.cancelled();

    const report: TransferReport = { concentration: [], step0: [], favorM: [], fits: [], maps: [] };
    // the maps of the first seed's models on one held-out example: the softmax teacher and, at step 0
    // and after the fine-tune, its swapped (and fitted) versions
    const example = deps.example(setup);
    const mapsOf = async (run: number) => ({
      run,
      seqLen: example.seqLen,
      maps: await trainers[run]!.attentionMaps(example),
    });
    const shown = (s: (typeof specs)[number]) => s.seed === setup.seed && s.role !== 'scratch';
    for (const s of soft) if (shown(s)) report.maps.push(await mapsOf(s.index));
    const teachers = new Map<number, ParamTensor[]>();
    for (const s of soft) {
      const p = await trainers[s.index]!.params();
      teachers.set(s.index, p);
      report.concentration.push({ seed: s.seed, heads: attentionConcentration(p, s.config.model, evalSet(s.config)) });
      if (setup.kinds.includes('positive')) {
        const ms = [...new Set([...TRANSFER_FAVOR_M, setup.m])].sort((a, b) => a - b);
        for (const m of ms) {
          const cfg = {
            ...s.config,
            model: { ...s.config.model, attention: attentionSpec('positive', { ...setup, m }) },
          };
          report.favorM.push({ seed: s.seed, m, ...evaluateModel(transferParams(p, cfg.model, s.seed), cfg) });
          await deps.yieldNow();
        }
      }
      // phase 1 is over: the softmax trainer is kept for the weights' export only
    }
    for (const s of phase2) {
      const teacher = teachers.get(s.source)!;
      let initial: ParamTensor[] | undefined;
      if (s.role !== 'scratch') initial = transferParams(teacher, s.config.model, s.seed);
      if (s.role === 'fitted' && initial) {
        const args = [teacher, specs[s.source].config.model, initial, s.config, setup.fit, FIT_LR] as const;
        const fit: HedgehogFitLike = deps.createFit ? await deps.createFit(...args) : createHedgehogFit(...args);
        try {
          const before = await fit.heldOutLoss();
          for (let i = 0; i < fit.steps; i++) {
            if (!(await loop.between())) return loop.cancelled();
            await fit.step();
            loop.count(flops[s.index]);
          }
          report.fits.push({ run: s.index, before, after: await fit.heldOutLoss(), steps: fit.steps });
          initial = await fit.params();
        } finally {
          fit.dispose?.();
        }
      }
      const t = await deps.createTrainer(s.config, initial);
      trainers[s.index] = t;
      report.step0.push({ run: s.index, ...(await t.evaluate()) });
      if (shown(s)) report.maps.push(await mapsOf(s.index));
      if (!(await loop.between())) return loop.cancelled();
    }
    deps.post({ type: 'transfer', id, report });
    if (
      !(await loop.stepAll(
        phase2.map((s) => ({ run: s.index, trainer: trainers[s.index]!, flops: flops[s.index] })),
        setup.tune,
      ))
    )
      return loop.cancelled();
    const maps = [];
    for (const s of phase2) if (shown(s)) maps.push(await mapsOf(s.index));
    loop.done(example.tokens.slice(0, example.seqLen), maps);
  }

  const finished = run().catch((e: unknown) => {
    deps.post({ type: 'error', id, error: serializeError(e) });
    loop.free();
  });
  return loop.session(finished, async (r) => {
    const t = trainers[r];
    if (!t) throw new Error(`no trained run ${r}`);
    return t.params();
  });
}
