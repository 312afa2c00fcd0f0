/**
 * Slide figures drawn from the engine's compute result: exact A (and Â) as large heatmaps on one
 * colour scale — of a trained head with its measured concentration —, and the cost model beside
 * the kernel times just measured.
 */
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useStrings } from '../ui/strings';
import { ColorLegend } from '../charts/ColorLegend';
import { fmtInt, fmtMs, fmtText } from '../charts/format';
import { Heatmap } from '../charts/Heatmap';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, heatScale, MAP_COLORS, robustMax } from '../charts/palette';
import { featureDim } from '../core/feature-maps';
import { FAVOR_M, FAVOR_SEEDS, headStats } from '../core/trained/head-stats';
import { useActions, useStore } from '../store/react';
import { sameParams } from '../core/same-params';
import { chartSize, ComputeNote, Frame, useFitSize, type Box } from './figure-frame';
import type { Step } from './story';

export function MatrixFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const actions = useActions();
  const result = useStore((s) => s.compute.result);
  const params = useStore((s) => s.params);
  const pinned = useStore((s) => s.ui.pinnedRow);
  const hovered = useStore((s) => s.ui.hoveredRow);
  const both = step.figure !== 'exact';
  const view = result?.output.view ?? null;
  const ready = !!view && !!result && sameParams(result.params, params);
  const scale = useMemo(
    () => heatScale(view ? robustMax(both ? [view.exact, view.approx] : [view.exact]).top : 1, 'linear'),
    [view, both],
  );
  const pick = useCallback((row: number) => actions.pinRow(row === pinned ? null : row), [actions, pinned]);

  const count = both ? 2 : 1;
  // heatmap frame: axes 56 px wide, 34 px tall, its caption above; two matrices have the stat line
  // and colour bar below them, one has them beside it. The height they may take is measured (the
  // caption's and stat line's rows depend on the font and the width); the constants are a first guess.
  const side = both ? 0 : Math.min(340, Math.floor(box.width * 0.32));
  const content = useRef<HTMLDivElement>(null);
  const fit = useFitSize(content, box);
  const size = Math.floor(
    Math.max(80, Math.min(fit ?? box.height - (both ? 128 : 70), (box.width - side - 24 * count) / count - 56)),
  );
  const m = result?.metrics;
  const n = result?.params.n ?? params.n;
  let stat: ReactNode = null;
  if (result) {
    if (step.id === 'quadratic') stat = p.statScores(fmtInt(n), fmtInt(n * n));
    else if (step.figure === 'head') stat = <HeadFacts error={m?.relErrorA} m={result.params.m} />;
    else if (!both) stat = p.statEntropy(fmtText(m?.entropyExact));
    else if (result.params.causal) stat = p.statCausal(fmtText(m?.relErrorA));
    else stat = p.statError(fmtText(m?.relErrorA), result.params.m);
  }
  const legend = result && (
    <ColorLegend
      labels={t.charts}
      scale={scale}
      label={p.colour}
      width={Math.min(300, Math.max(200, (side || box.width / 3) - 16))}
    />
  );
  const maps =
    view && result ? (
      <div className="slide-heatmaps">
        {(both
          ? ([
              ['exact', p.exactTitle, view.exact],
              ['approx', p.approxTitle(t.names.maps[result.params.featureMap]), view.approx],
            ] as const)
          : ([['exact', p.exactTitle, view.exact]] as const)
        ).map(([key, title, data]) => (
          <Heatmap
            labels={t.charts}
            key={key}
            metric={`slide-heatmap-${key}`}
            title={title}
            data={data}
            cells={view.cells}
            block={view.block}
            n={result.params.n}
            scale={scale}
            size={size}
            pinnedRow={pinned}
            hoveredRow={hovered}
            onHoverRow={actions.hoverRow}
            onPickRow={pick}
            resultId={result.id}
          />
        ))}
      </div>
    ) : null;
  return (
    <Frame
      kind={step.figure}
      ready={ready}
      status={<ComputeNote />}
      stat={
        both && result ? (
          <span className="slide-stat-row">
            <span className={step.figure === 'head' ? 'slide-head-stat' : undefined}>{stat}</span>
            {legend}
          </span>
        ) : null
      }
    >
      {both ? (
        <div ref={content} data-fit-size={size}>
          {maps}
        </div>
      ) : (
        <div className="slide-matrix" ref={content} data-fit-size={size}>
          {maps}
          {result && (
            <div className="slide-matrix-side" style={{ width: side }}>
              {legend}
              <p className="slide-stat">{stat}</p>
            </div>
          )}
        </div>
      )}
    </Frame>
  );
}

/**
 * What the trained head in force measures (src/core/trained/head-stats.ts on its Q, K): mean row
 * entropy against uniform rows', the error of the Â on screen at the current m, and FAVOR+'s mean
 * error over FAVOR_SEEDS draws at each m of FAVOR_M — how little more features help.
 */
function HeadFacts({ error, m }: { error: number | null | undefined; m: number }) {
  const p = useStrings().present;
  const active = useStore((s) => s.upload.active);
  const causal = useStore((s) => s.params.causal);
  const stats = useMemo(
    () => (active?.trained ? headStats({ q: active.q.matrix, k: active.k.matrix }, causal) : null),
    [active, causal],
  );
  if (!stats) return null;
  return (
    <span
      data-head-stats=""
      data-entropy={stats.entropy}
      data-entropy-uniform={stats.entropyUniform}
      data-favor-error={stats.favorError.join(',')}
    >
      {p.headStat({
        entropy: fmtText(stats.entropy, 2),
        uniform: fmtText(stats.entropyUniform, 2),
        error: fmtText(error, 2),
        m,
        errors: stats.favorError.map((e) => fmtText(e, 2)).join(' / '),
        ms: FAVOR_M.join(' / '),
        draws: FAVOR_SEEDS,
      })}
    </span>
  );
}

/** Exact 4n²d vs Performer ≈ 8nm′d FLOPs (ARCHITECTURE.md, "Facts the code relies on"), the crossover and the kernel times just measured. */
export function CostFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((s) => s.params);
  const result = useStore((s) => s.compute.result);
  const backend = useStore((s) => s.backend.info);
  const mp = featureDim(params.featureMap, params.m, params.d);
  const series = useMemo((): Series[] => {
    const ns: number[] = [];
    for (let n = 16; n <= 65_536; n *= 2) ns.push(n);
    return [
      {
        id: 'exact',
        label: p.costExact,
        color: EXACT_COLOR,
        x: ns,
        y: ns.map((n) => 4 * n * n * params.d),
        points: true,
      },
      {
        id: 'perf',
        label: p.costPerformer,
        color: MAP_COLORS.positive,
        dash: '6 3',
        x: ns,
        y: ns.map((n) => 8 * n * mp * params.d),
        points: true,
      },
    ];
  }, [p, params.d, mp]);
  const timings = result && sameParams(result.params, params) ? result.output.timings : null;
  const sum = (re: RegExp) => (timings ? timings.filter((k) => re.test(k.kernel)).reduce((a, k) => a + k.ms, 0) : null);
  const exactMs = sum(/exact/);
  // kernel labels: CPU feature-maps / linear-attention; GPU favor.*, performer.*, causal.*
  const perfMs = sum(/performer|linear|feature|favor|causal/);
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame
      kind={step.figure}
      ready={!!timings}
      status={<ComputeNote />}
      stat={
        timings
          ? p.costMeasured(fmtMs(exactMs), fmtMs(perfMs), backend?.kind === 'webgpu' ? 'WebGPU' : 'CPU')
          : p.waiting
      }
    >
      <div style={{ maxWidth }} className="slide-chart">
        <LineChart
          labels={t.charts}
          series={series}
          xLabel={p.costX}
          yLabel={p.costY}
          xScale="log"
          yScale="log"
          integerX
          ariaLabel={p.costTable}
          tableCaption={p.costTable}
          markers={[
            { x: params.n, label: `n = ${fmtInt(params.n)}` },
            { x: 2 * mp, label: p.costCrossover(fmtInt(2 * mp)), color: MAP_COLORS.positive },
          ]}
          height={height}
          fill
        />
      </div>
    </Frame>
  );
}
