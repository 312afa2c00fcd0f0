/**
 * Panel 3 — rank: singular value spectra of exact A, Â and the scores QKᵀ (computed in f64 in the
 * analysis worker), numerical rank at a stated tolerance, effective rank, reference lines at d and
 * m′, and the effect of the causal mask.
 */
import { useId, useMemo } from 'react';
import { useStrings } from '../app/strings';
import { fmt, fmtInt } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS, OKABE_ITO } from '../charts/palette';
import { effectiveRank, numericalRank, RANK_TOLERANCES } from '../core/rank';
import { DENSE_ANALYSIS_MAX_N, spectraRequest, type SpectraResult } from '../store/analyses';
import { useActions, useStore } from '../store/react';
import { AnalysisStatus, Metric, Panel, useAnalysisRequest } from './common';
import { Figure } from './Figure';

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
      hLines={[{ y: tol, label: `τ = ${tol.toExponential(0)}` }]}
      height={height}
      fill={fill}
      dimmed={dimmed}
      notes={notes}
    />
  );
}

export function RankPanel() {
  const t = useStrings();
  const s = t.rank;
  const actions = useActions();
  const params = useStore((st) => st.params);
  const tol = useStore((st) => st.ui.rankTol);
  const tolId = useId();
  const causalId = useId();
  const ok = params.n <= DENSE_ANALYSIS_MAX_N;
  const spec = useAnalysisRequest(spectraRequest(params), ok);
  const v = spec.value;

  const derived = useMemo(() => {
    if (!v) return null;
    return {
      rankExact: numericalRank(v.exact, tol),
      rankApprox: numericalRank(v.approx, tol),
      rankScores: numericalRank(v.scores, tol),
      effExact: effectiveRank(v.exact),
      effApprox: effectiveRank(v.approx),
    };
  }, [v, tol]);

  return (
    <Panel id="rank" title={s.title} lead={s.lead} formula={s.formula}>
      <div className="inline-control">
        <label htmlFor={tolId}>{s.tol}</label>
        <select
          id={tolId}
          value={tol}
          data-ui="rankTol"
          onChange={(e) => actions.setUi('rankTol', Number(e.target.value))}
        >
          {RANK_TOLERANCES.map((x) => (
            <option key={x} value={x}>
              {x.toExponential(0)}
            </option>
          ))}
        </select>
        <span className="help">{s.tolHelp}</span>
      </div>
      <div className="inline-control">
        <input
          id={causalId}
          type="checkbox"
          checked={params.causal}
          onChange={(e) => actions.setParam('causal', e.target.checked)}
        />
        <label htmlFor={causalId}>{s.causalToggle}</label>
      </div>
      {!ok ? (
        <p className="note warn" data-limit="rank">
          {s.limit(fmtInt(DENSE_ANALYSIS_MAX_N), fmtInt(params.n))}
        </p>
      ) : (
        <>
          <AnalysisStatus req={spec.req} entry={spec.entry} />
          {v && derived && (
            <>
              <div
                className="metrics"
                data-rank-tol={tol}
                data-rank-n={v.n}
                data-rank-mprime={v.mPrime}
                data-rank-causal={String(v.causal)}
              >
                <Metric name="rank-exact" label={s.rankExact} value={derived.rankExact} format={fmtInt} />
                <Metric name="rank-performer" label={s.rankApprox} value={derived.rankApprox} format={fmtInt} />
                <Metric name="rank-scores" label={s.rankScores} value={derived.rankScores} format={fmtInt} />
                <Metric name="eff-rank-exact" label={s.effExact} value={derived.effExact} />
                <Metric name="eff-rank-performer" label={s.effApprox} value={derived.effApprox} />
              </div>
              <h3>{s.spectrumTitle}</h3>
              <Figure name="singular-values" title={s.spectrumTitle}>
                <SpectrumChart v={v} tol={tol} height={300} dimmed={spec.stale} notes={[s.sizeNote(v.n)]} />
              </Figure>
              {v.causal && v.minDiagExact !== null && v.minDiagApprox !== null && (
                <p className="note" data-triangular="">
                  {s.triangular(fmt(v.minDiagExact), fmt(v.minDiagApprox))}
                </p>
              )}
            </>
          )}
        </>
      )}
    </Panel>
  );
}
