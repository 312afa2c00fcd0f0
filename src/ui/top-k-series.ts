/** The top-k mass series (exact, the current map, 1 + elu) of the sparsity panel and the sparsity slide. */
import type { Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS, MAP_DASH } from '../charts/palette';
import type { RowEntropiesResult } from '../store/analyses';
import type { Strings } from './strings';

export function topKSeries(rv: RowEntropiesResult, t: Pick<Strings, 'sparsity' | 'names'>): Series[] {
  const s = t.sparsity;
  return [
    { id: 'exact', label: s.exact, color: EXACT_COLOR, x: rv.topK.k, y: rv.topK.exact, points: true },
    {
      id: 'perf',
      label: s.perf(t.names.maps[rv.map]),
      color: MAP_COLORS[rv.map],
      dash: MAP_DASH[rv.map] ?? '5 3',
      x: rv.topK.k,
      y: rv.topK.performer,
      points: true,
    },
    {
      id: 'elu',
      label: s.elu,
      color: MAP_COLORS.elu1,
      dash: MAP_DASH.elu1,
      x: rv.topK.k,
      y: rv.topK.elu1,
      points: true,
    },
  ];
}
