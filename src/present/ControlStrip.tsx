/**
 * The 1–3 controls a slide offers, large enough to hit on a lectern laptop: sliders over the same
 * stops as the page's controls (capped so every figure computes quickly on any machine), the
 * causal toggle and the trained-head choice. Changes go through the store's actions (a head
 * through `selectTrained`), like everywhere else.
 */
import { useId, useMemo } from 'react';
import { useStrings } from '../ui/strings';
import { fmtInt } from '../charts/format';
import { bundleShape } from '../core/trained/bundles';
import { isTrainedModelId } from '../core/trained/configs';
import { D_STOPS, M_STOPS, N_STOPS } from '../store/params';
import { useActions, useAppStore, useStore } from '../store/react';
import { selectTrained, TRAINED_MODELS } from '../store/trained';
import { CausalToggle, ScaleRange, StopRange } from '../ui/param-controls';
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
  return (
    <div className="strip-control">
      <label htmlFor={id}>
        {label} = <output htmlFor={id}>{fmtInt(value)}</output>
      </label>
      <StopRange id={id} param={param} stops={STOPS[param]} label={label} />
    </div>
  );
}

function ScaleSlider() {
  const id = useId();
  const label = useStrings().present.controlNames.scale;
  const value = useStore((s) => s.params.scale);
  return (
    <div className="strip-control">
      <label htmlFor={id}>
        {label} = <output htmlFor={id}>{value}</output>
      </label>
      <ScaleRange id={id} min={SLIDE_LIMITS.scaleMin} max={SLIDE_LIMITS.scaleMax} step={0.05} label={label} />
    </div>
  );
}

/** Every (layer, head) of every bundled model, on the sequence in force. */
function HeadSelect() {
  const id = useId();
  const p = useStrings().present;
  const store = useAppStore();
  const actions = useActions();
  const sel = useStore((s) => s.upload.active?.trained ?? null);
  const heads = useMemo(
    () =>
      TRAINED_MODELS.flatMap((model) => {
        const { layers, heads: perLayer } = bundleShape(model);
        return Array.from({ length: layers * perLayer }, (_, i) => ({
          model,
          layer: Math.floor(i / perLayer),
          head: i % perLayer,
        }));
      }),
    [],
  );
  if (!sel) return null;
  return (
    <div className="strip-control">
      <label htmlFor={id}>{p.controlNames.head}</label>
      <select
        id={id}
        data-trained-key="head"
        value={`${sel.model}:${sel.layer}:${sel.head}`}
        onChange={(e) => {
          const [model = '', layer, head] = e.target.value.split(':');
          if (isTrainedModelId(model))
            selectTrained(store, actions, { model, layer: Number(layer), head: Number(head), example: sel.example });
        }}
      >
        {heads.map((h) => (
          <option key={`${h.model}:${h.layer}:${h.head}`} value={`${h.model}:${h.layer}:${h.head}`}>
            {p.headOption(h.model, h.layer, h.head)}
          </option>
        ))}
      </select>
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
        ) : c === 'head' ? (
          <HeadSelect key={c} />
        ) : c === 'causal' ? (
          <CausalToggle key={c} label={t.controlNames.causal} className="strip-control strip-toggle" />
        ) : (
          <StopSlider key={c} param={c} />
        ),
      )}
    </div>
  );
}
