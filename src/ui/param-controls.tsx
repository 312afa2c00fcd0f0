/**
 * The parameter inputs the sidebar (src/controls), the embed strip (src/app/EmbedControls.tsx) and
 * the slides' strip (src/present/ControlStrip.tsx) share; each wraps them in its own row and label.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { fmtInt } from '../charts/format';
import { nearestStop } from '../store/params';
import { useActions, useStore } from '../store/react';
import { createFrameCoalescer } from './frame-coalescer';

/**
 * A slider's value while dragged: every input event shows at once on the slider, the store gets
 * the newest value once per animation frame (so a drag computes continuously, one request per
 * frame at most, without re-rendering the page for every pixel), and release delivers the last one.
 */
function useFrameValue<T>(apply: (value: T) => void): {
  pending: T | null;
  push: (value: T) => void;
  flush: () => void;
} {
  const [pending, setPending] = useState<T | null>(null);
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });
  const [coalescer] = useState(() =>
    createFrameCoalescer<T>((v) => {
      applyRef.current(v);
      setPending(null);
    }),
  );
  useEffect(() => () => coalescer.flush(), [coalescer]);
  return {
    pending,
    push: (v) => {
      setPending(v);
      coalescer.push(v);
    },
    flush: () => coalescer.flush(),
  };
}

/** A range input over the indices of `stops`: it shows the stop nearest to the value and sets the stop it lands on. */
export function StopRange({
  id,
  param,
  stops,
  label,
  disabled,
}: {
  id: string;
  param: 'n' | 'd' | 'm';
  stops: readonly number[];
  /** the parameter's name, for the spoken value */
  label: string;
  disabled?: boolean;
}) {
  const stored = useStore((s) => s.params[param]);
  const actions = useActions();
  const live = useFrameValue<number>((v) => actions.setParam(param, v));
  const value = live.pending ?? stored;
  return (
    <input
      id={id}
      type="range"
      min={0}
      max={stops.length - 1}
      step={1}
      value={nearestStop(stops, value)}
      data-param={param}
      disabled={disabled}
      aria-valuetext={`${label} = ${fmtInt(value)}`}
      onChange={(e) => live.push(stops[Number(e.target.value)]!)}
      onPointerUp={live.flush}
      onBlur={live.flush}
    />
  );
}

/** A range input for the norm scale over [min, max] (the typed entry, where there is one, takes the full range). */
export function ScaleRange({
  id,
  min,
  max,
  step,
  label,
  disabled,
}: {
  id: string;
  min: number;
  max: number;
  step: number;
  /** the parameter's name, for the spoken value */
  label: string;
  disabled?: boolean;
}) {
  const stored = useStore((s) => s.params.scale);
  const actions = useActions();
  const live = useFrameValue<number>((v) => actions.setParam('scale', v));
  const scale = live.pending ?? stored;
  return (
    <input
      id={id}
      type="range"
      min={min}
      max={max}
      step={step}
      value={Math.min(max, Math.max(min, scale))}
      data-param="scale"
      disabled={disabled}
      aria-valuetext={`${label} = ${scale}`}
      // whole hundredths: the slider's steps, without the float noise of min + k·step
      onChange={(e) => live.push(Math.round(Number(e.target.value) * 100) / 100)}
      onPointerUp={live.flush}
      onBlur={live.flush}
    />
  );
}

/** The causal mask's checkbox with its label after it. */
export function CausalToggle({ label, className }: { label: string; className: string }) {
  const id = useId();
  const causal = useStore((s) => s.params.causal);
  const actions = useActions();
  return (
    <div className={className}>
      <input
        id={id}
        type="checkbox"
        checked={causal}
        data-param="causal"
        onChange={(e) => actions.setParam('causal', e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
