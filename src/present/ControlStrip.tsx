/**
 * The 1–3 controls a slide offers, large enough to hit on a lectern laptop: sliders over the same
 * stops as the page's controls (capped so every figure computes quickly on any machine) and the
 * causal toggle. Changes go through the store's actions, like everywhere else.
 */
import { useId } from 'react';
import { useStrings } from '../ui/strings';
import { fmtInt } from '../charts/format';
import { D_STOPS, M_STOPS, N_STOPS, nearestStop } from '../store/params';
import { useActions, useStore } from '../store/react';
import { SLIDE_LIMITS, type SlideControl } from './story';

const STOPS = {
  n: N_STOPS.filter((v) => v >= 16 && v <= SLIDE_LIMITS.nMax),
  d: D_STOPS.filter((v) => v >= 2 && v <= SLIDE_LIMITS.dMax),
  m: M_STOPS.filter((v) => v >= 4 && v <= SLIDE_LIMITS.mMax),
} as const;

function StopSlider({ param }: { param: 'n' | 'd' | 'm' }) {
  const id = useId();
  const label = useStrings().present.controlNames[param];
  const value = useStore((s) => s.params[param]);
  const actions = useActions();
  const stops = STOPS[param];
  return (
    <div className="strip-control">
      <label htmlFor={id}>
        {label} = <output htmlFor={id}>{fmtInt(value)}</output>
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={stops.length - 1}
        step={1}
        value={nearestStop(stops, value)}
        data-param={param}
        aria-valuetext={`${label} = ${fmtInt(value)}`}
        onChange={(e) => actions.setParam(param, stops[Number(e.target.value)]!)}
      />
    </div>
  );
}

function ScaleSlider() {
  const id = useId();
  const label = useStrings().present.controlNames.scale;
  const value = useStore((s) => s.params.scale);
  const actions = useActions();
  return (
    <div className="strip-control">
      <label htmlFor={id}>
        {label} = <output htmlFor={id}>{value}</output>
      </label>
      <input
        id={id}
        type="range"
        min={SLIDE_LIMITS.scaleMin}
        max={SLIDE_LIMITS.scaleMax}
        step={0.05}
        value={Math.min(SLIDE_LIMITS.scaleMax, Math.max(SLIDE_LIMITS.scaleMin, value))}
        data-param="scale"
        aria-valuetext={`${label} = ${value}`}
        onChange={(e) => actions.setParam('scale', Math.round(Number(e.target.value) * 100) / 100)}
      />
    </div>
  );
}

function CausalToggle() {
  const id = useId();
  const label = useStrings().present.controlNames.causal;
  const value = useStore((s) => s.params.causal);
  const actions = useActions();
  return (
    <div className="strip-control strip-toggle">
      <input
        id={id}
        type="checkbox"
        checked={value}
        data-param="causal"
        onChange={(e) => actions.setParam('causal', e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function ControlStrip({ controls }: { controls: readonly SlideControl[] }) {
  const t = useStrings().present;
  if (!controls.length) return null;
  return (
    <div className="control-strip" role="group" aria-label={t.controls}>
      {controls.map((c) =>
        c === 'scale' ? (
          <ScaleSlider key={c} />
        ) : c === 'causal' ? (
          <CausalToggle key={c} />
        ) : (
          <StopSlider key={c} param={c} />
        ),
      )}
    </div>
  );
}
