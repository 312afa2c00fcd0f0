/**
 * What every panel shares: the frame (title, formula, explanation, error boundary) and headline
 * numbers with data-metric attributes. The analysis hooks and status line are in src/ui/analysis.tsx.
 */
import { memo, useDeferredValue, type ReactNode } from 'react';
import type { AttentionParams } from '../core/types';
import { useStore } from '../store/react';
import { EmbedButton } from '../ui/EmbedDialog';
import { PanelBoundary } from '../ui/PanelBoundary';
import { fmt } from '../charts/format';
import type { PanelId } from '../store/store';
import { Formula } from '../ui/Formula';

export function Panel(props: {
  id: PanelId;
  title: string;
  lead: ReactNode;
  formula?: string;
  formulaNote?: string;
  children: ReactNode;
}) {
  return (
    <section className="panel" id={`panel-${props.id}`} data-panel={props.id} aria-labelledby={`h-${props.id}`}>
      <EmbedButton panel={props.id} />
      <h2 id={`h-${props.id}`}>{props.title}</h2>
      <p className="lead">{props.lead}</p>
      {props.formula && <Formula tex={props.formula} />}
      {props.formulaNote && <p className="note">{props.formulaNote}</p>}
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
}) {
  const v = props.value;
  const shown = props.text ?? (v === null || v === undefined ? '—' : (props.format ?? fmt)(v));
  return (
    <div
      className="metric"
      data-metric={props.name}
      data-value={v === null || v === undefined ? '' : String(v)}
      title={props.hint}
    >
      <div className="metric-value">{shown}</div>
      <div className="metric-label">{props.label}</div>
    </div>
  );
}

/**
 * A panel whose body follows the parameters at low priority: a parameter change (every frame of a
 * slider drag) renders only this shell at once; the body re-renders with the new parameters in a
 * deferred, interruptible render (React yields to the browser between components), so a panel's
 * charts never hold the main thread while the slider moves. The body is memoized: the shell's
 * urgent render, with the deferred value still the old one, stops here.
 */
export function withDeferredParams(name: string, Body: (props: { params: AttentionParams }) => ReactNode) {
  const MemoBody = memo(Body);
  function DeferredParams() {
    const params = useDeferredValue(useStore((s) => s.params));
    return <MemoBody params={params} />;
  }
  DeferredParams.displayName = name;
  return DeferredParams;
}
