/**
 * How an attention kind of the training comparison is named and drawn: softmax in the explainer's
 * exact colour, each feature map in its colour and dash, its local-window variant in the same
 * colour with a short dash (colour is never the only cue).
 */
import { EXACT_COLOR, MAP_COLORS, MAP_DASH } from '../../charts/palette';
import type { TrainFeatureMap } from '../../core/train/types';
import type { TrainKind } from '../../engine/training-setup';
import type { Strings } from '../../i18n/en';

const baseMap = (kind: TrainKind): TrainFeatureMap | null =>
  kind === 'softmax' ? null : (kind.replace(/-local$/, '') as TrainFeatureMap);

export function kindName(kind: TrainKind, t: Strings): string {
  const map = baseMap(kind);
  if (!map) return t.training.softmax;
  const name = t.names.maps[map];
  return kind.endsWith('-local') ? t.training.local(name) : name;
}

export function kindColor(kind: TrainKind): string {
  const map = baseMap(kind);
  return map ? MAP_COLORS[map] : EXACT_COLOR;
}

export function kindDash(kind: TrainKind): string | undefined {
  const map = baseMap(kind);
  if (!map) return undefined;
  return kind.endsWith('-local') ? '2 3' : MAP_DASH[map];
}
