/** The singular value spectra figure of the rank panel and the rank slide. */
import { useMemo } from 'react';
import { LineChart, type Series } from '../charts/LineChart';
import { fmtSci } from '../charts/format';
import { EXACT_COLOR, MAP_COLORS, OKABE_ITO } from '../charts/palette';
import type { SpectraResult } from '../store/analyses';
import { useStrings } from './strings';

/** σ/σ₁ below this is at the f64 rounding floor; drawn at the floor. */
const FLOOR = 1e-17;

function normalized(sigma: Float64Array): { x: Float64Array; y: Float64Array } {
  const top = sigma[0] ?? 0;
  let k = sigma.length;
  while (k > 0 && !(sigma[k - 1]! > 0)) k--; // structural zeros are not drawn on a log axis
  const x = new Float64Array(k);
  const y = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    x[i] = i + 1;
    y[i] = top > 0 ? Math.max(FLOOR, sigma[i]! / top) : 0;
  }
  return { x, y };
}

/** σ_i/σ_1 of A, Â and the scores on log-log axes, with reference lines at d, m′ and the tolerance (also on the rank slide). */
export function SpectrumChart({
  v,
  tol,
  height,
  dimmed,
  notes,
  fill,
}: {
  v: SpectraResult;
  tol: number;
  height: number;
  dimmed?: boolean;
  notes?: string[];
  /** fill the container's height (the lecture slide) */
  fill?: boolean;
}) {
  const t = useStrings();
  const s = t.rank;
  const series = useMemo(
    (): Series[] => [
      { id: 'exact', label: s.exact, color: EXACT_COLOR, ...normalized(v.exact) },
      {
        id: 'approx',
        label: s.approx(t.names.maps[v.map]),
        color: MAP_COLORS[v.map],
        dash: '5 3',
        ...normalized(v.approx),
      },
      { id: 'scores', label: s.scores, color: OKABE_ITO.green, dash: '2 3', ...normalized(v.scores) },
    ],
    [v, s, t.names.maps],
  );
  return (
    <LineChart
      labels={t.charts}
      series={series}
      xLabel={s.xIndex}
      yLabel={s.ySigma}
      xScale="log"
      yScale="log"
      integerX
      xDomain={[1, v.n]}
      ariaLabel={s.spectrumTitle}
      tableCaption={s.tableSpectra}
      markers={[
        { x: v.d, label: s.lineD(v.d), color: OKABE_ITO.green },
        { x: v.mPrime, label: s.lineM(v.mPrime), color: MAP_COLORS[v.map] },
      ]}
      hLines={[{ y: tol, label: `τ = ${fmtSci(tol)}` }]}
      height={height}
      fill={fill}
      dimmed={dimmed}
      notes={notes}
    />
  );
}
