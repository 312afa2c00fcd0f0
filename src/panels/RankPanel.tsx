/**
 * Panel 3 — rank: singular value spectra of exact A, Â and the scores QKᵀ (the SVD in f64 on the
 * CPU; A and Â formed by the analysis backend — on a GPU in f32), numerical rank at a stated
 * tolerance, effective rank, reference lines at d and m′, and the effect of the causal mask.
 */
import type { AttentionParams } from '../core/types';
import { useId, useMemo } from 'react';
import { useStrings } from '../ui/strings';
import { fmtInt, fmtSci, fmtText } from '../charts/format';
import { effectiveRank, numericalRank, RANK_TOLERANCES } from '../core/rank';
import { DENSE_ANALYSIS_MAX_N, spectraRequest } from '../store/analyses';
import { useActions, useStore } from '../store/react';
import { Metric, Panel, withDeferredParams } from './common';
import { AnalysisStatus, useAnalysisRequest } from '../ui/analysis';
import { Figure } from '../ui/Figure';
import { SpectrumChart } from '../ui/SpectrumChart';
import { AnalysisSlot } from '../ui/PendingFigure';
import { ZeroNormalizerNotice } from './StabilizerFigure';

/** The numbers, subtitle and spectrum under the status line (px at the defaults): held until the first spectra. */
const RANK_HEIGHT = 512;

export const RankPanel = withDeferredParams('RankPanel', RankPanelBody);

function RankPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.rank;
  const actions = useActions();
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
              {fmtSci(x)}
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
          <AnalysisStatus req={spec.req} />
          {/* `derived` is there whenever the value is (one memo of it) */}
          <AnalysisSlot name="singular-values" analysis={spec} height={RANK_HEIGHT}>
            {(v) => (
              <>
                <div
                  className="metrics"
                  data-rank-tol={tol}
                  data-rank-n={v.n}
                  data-rank-mprime={v.mPrime}
                  data-rank-causal={String(v.causal)}
                >
                  <Metric name="rank-exact" label={s.rankExact} value={derived!.rankExact} format={fmtInt} />
                  <Metric name="rank-performer" label={s.rankApprox} value={derived!.rankApprox} format={fmtInt} />
                  <Metric name="rank-scores" label={s.rankScores} value={derived!.rankScores} format={fmtInt} />
                  <Metric name="eff-rank-exact" label={s.effExact} value={derived!.effExact} />
                  <Metric name="eff-rank-performer" label={s.effApprox} value={derived!.effApprox} />
                </div>
                <h3>{s.spectrumTitle}</h3>
                <Figure name="singular-values" title={s.spectrumTitle}>
                  <SpectrumChart v={v} tol={tol} height={300} dimmed={spec.stale} notes={[s.sizeNote(v.n)]} />
                </Figure>
                <ZeroNormalizerNotice rows={v.zeroNormalizerRows} n={v.n} map={v.map} />
                {v.causal && v.minDiagExact !== null && v.minDiagApprox !== null && (
                  <p className="note" data-triangular="">
                    {s.triangular(fmtText(v.minDiagExact), fmtText(v.minDiagApprox))}
                  </p>
                )}
              </>
            )}
          </AnalysisSlot>
        </>
      )}
    </Panel>
  );
}
