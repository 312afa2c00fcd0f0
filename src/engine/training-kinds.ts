/**
 * The kinds and tasks of the training panel and the `train=` key (training-setup.ts re-exports
 * them): the tasks, the attention kinds, what comes before attention, and which kinds a comparison
 * or a transfer experiment may list.
 */
import type { ShortConv, TrainFeatureMap } from '../core/train/types';
import { TRAIN_FEATURE_MAPS } from '../core/train/types';

/** The panel's tasks: the three trainer tasks and Su's local-truncation experiment (MLM data, windowed vs full linear). */
export const TRAIN_TASKS = ['mqar', 'lm', 'mlm', 'local'] as const;
export type TrainTask = (typeof TRAIN_TASKS)[number];

/** An attention kind: exact softmax, a feature map (full linear attention) or a feature map truncated to a local window. */
export type TrainKind = 'softmax' | TrainFeatureMap | `${TrainFeatureMap}-local`;
export const TRAIN_KINDS: readonly TrainKind[] = [
  'softmax',
  ...TRAIN_FEATURE_MAPS,
  ...TRAIN_FEATURE_MAPS.map((m) => `${m}-local` as const),
];
export const SHORT_CONVS: readonly ShortConv[] = ['none', 'shift', 'conv3'];

export const MAX_KINDS = 4;
export const MIN_KINDS = 2;

/** The kinds a transfer run can swap softmax for: every training feature map, without a local window. */
export const TRANSFER_KINDS: readonly TrainKind[] = TRAIN_FEATURE_MAPS;
export const isTransferKind = (k: TrainKind) => (TRANSFER_KINDS as readonly string[]).includes(k);

/**
 * Kinds fitting a mode: for the transfer, the feature maps among `kinds` (their local windows
 * dropped), else FAVOR+ and Hedgehog; for a comparison, softmax first (added when missing) and the
 * kinds, 2–4 of them.
 */
export function adaptKinds(kinds: readonly TrainKind[], transfer: boolean): TrainKind[] {
  const maps = [...new Set(kinds.map((k) => k.replace(/-local$/, '') as TrainKind))].filter(isTransferKind);
  if (transfer) return maps.length ? maps : ['positive', 'hedgehog'];
  const out: TrainKind[] = kinds.includes('softmax') ? [...kinds] : ['softmax', ...kinds];
  if (out.length < MIN_KINDS) out.push(out.includes('elu1') ? 'positive' : 'elu1');
  return out.slice(0, MAX_KINDS);
}
