/**
 * What every panel shares: the frame (title, formula, explanation, error boundary) and headline
 * numbers with data-metric attributes. The analysis hooks and status line are in src/ui/analysis.tsx.
 */
import { memo, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import type { AttentionParams } from '../core/types';
import { useStore } from '../store/react';
import { EmbedButton } from '../ui/EmbedDialog';
import { PanelBoundary } from '../ui/PanelBoundary';
import { fmtText } from '../charts/format';
import { SciText } from '../ui/SciText';
import type { PanelId } from '../store/store';
import { holdsPanels, nextShown, PANEL_HOLD_MS, type ShownParams } from '../store/panel-params';
import { Formula } from '../ui/Formula';
import { panelAnchor, PanelOnly } from '../ui/figure-focus';

/**
 * Each panel's height before it has rendered once (content-visibility: auto skips a panel off screen;
 * styles.css .panel): its content height in px (border and padding, 31 px, come on top) at the
 * defaults in a 1280-px window, figures' space held (src/ui/PendingFigure.tsx). Close guesses give
 * the page its length from the start, and a jump to a panel (a #panel- link) lands where it stays
 * while the panels above it render.
 */
const PANEL_FIRST_GUESS: Partial<Record<PanelId, number>> = {
  error: 1796,
  sparsity: 1943,
  rank: 804,
  'feature-maps': 2430,
  speed: 407,
  beyond: 2582,
  training: 669,
};

export function Panel(props: {
  id: PanelId;
  title: string;
  lead: ReactNode;
  formula?: string;
  formulaNote?: string;
  children: ReactNode;
}) {
  const guess = PANEL_FIRST_GUESS[props.id];
  return (
    <section
      className="panel"
      id={panelAnchor(props.id)}
      data-panel={props.id}
      aria-labelledby={`h-${props.id}`}
      style={guess ? { containIntrinsicSize: `auto ${guess}px` } : undefined}
    >
      <EmbedButton panel={props.id} />
      <h2 id={`h-${props.id}`}>{props.title}</h2>
      <PanelOnly>
        <p className="lead">{props.lead}</p>
        {props.formula && <Formula tex={props.formula} />}
        {props.formulaNote && <p className="note">{props.formulaNote}</p>}
      </PanelOnly>
      <PanelBoundary name={props.title}>{props.children}</PanelBoundary>
    </section>
  );
}

export function Metric(props: {
  name: string;
  label: string;
  value: number | null | undefined;
  hint?: string;
  format?: (v: number) => string;
  text?: string;
  /** the value is of other parameters than the current ones (a note beside says which) */
  dimmed?: boolean;
}) {
  const v = props.value;
  const shown = props.text ?? (v === null || v === undefined ? '—' : (props.format ?? fmtText)(v));
  return (
    <div
      className={props.dimmed ? 'metric dimmed' : 'metric'}
      data-metric={props.name}
      data-stale={props.dimmed ? 'true' : undefined}
      data-value={v === null || v === undefined ? '' : String(v)}
      title={props.hint}
    >
      <div className="metric-value">
        <SciText text={shown} />
      </div>
      <div className="metric-label">{props.label}</div>
    </div>
  );
}

/**
 * The parameters a panel body renders: the store's (`params`), except that while a short main compute is in
 * flight they wait for its result (at most PANEL_HOLD_MS; the rule is src/store/panel-params.ts), so a
 * slider step gives the machine to the heatmaps first and the panels follow with them.
 */
function usePanelParams(params: AttentionParams): AttentionParams {
  const holding = useStore((s) => holdsPanels(s.compute));
  const resultId = useStore((s) => s.compute.result?.id ?? null);
  const [shown, setShown] = useState<ShownParams>(() => ({ params, resultId }));
  /** the parameters whose wait ran out */
  const [expiredFor, setExpiredFor] = useState<AttentionParams | null>(null);
  const next = nextShown(shown, params, { resultId, holding, expired: expiredFor === params });
  // adjusting state while rendering (React re-renders this component at once, before its children)
  if (next !== shown) setShown(next);
  const waiting = next.params !== params;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setExpiredFor(params), PANEL_HOLD_MS);
    return () => clearTimeout(timer);
  }, [waiting, params]);
  return next.params;
}

/** The panel bodies whose last committed render is for other parameters than the store's. */
const behind = new Set<object>();

/** How many panel bodies have not yet rendered the store's parameters (the benches' "settled" waits for 0). */
export function panelsBehind(): number {
  return behind.size;
}

function useReportBehind(params: AttentionParams, live: AttentionParams): void {
  const [token] = useState(() => ({}));
  useEffect(() => {
    if (params === live) behind.delete(token);
    else behind.add(token);
  }, [params, live, token]);
  useEffect(() => () => void behind.delete(token), [token]);
}

/** Renders of each panel body since the page loaded (per panel name). */
const bodyRenders: Record<string, number> = {};

/** How often each panel body has rendered (the tests: an analysis' progress report alone renders none). */
export function panelBodyRenders(): Readonly<Record<string, number>> {
  return { ...bodyRenders };
}

/**
 * A panel whose body follows the parameters at low priority: a parameter change (every frame of a
 * slider drag) renders only this shell at once; the body re-renders with the new parameters in a
 * deferred, interruptible render (React yields to the browser between components), so a panel's
 * charts never hold the main thread while the slider moves — and while a short main compute is in
 * flight, not before its result (usePanelParams). The body is memoized: the shell's urgent render,
 * with the deferred value still the old one, stops here.
 */
export function withDeferredParams(name: string, Body: (props: { params: AttentionParams }) => ReactNode) {
  const MemoBody = memo(function CountedBody(props: { params: AttentionParams }) {
    bodyRenders[name] = (bodyRenders[name] ?? 0) + 1;
    return Body(props);
  });
  function DeferredParams() {
    const live = useStore((s) => s.params);
    const params = useDeferredValue(usePanelParams(live));
    useReportBehind(params, live);
    return <MemoBody params={params} />;
  }
  DeferredParams.displayName = name;
  return DeferredParams;
}
