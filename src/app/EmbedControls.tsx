/**
 * The compact strip of controls under an embedded figure (`controls=`; the panel's defaults when
 * absent). It reuses the app's slider, select and typed-number controls; the scale slider and the
 * causal switch are the compact forms of the sidebar's. Range inputs and selects do not react to
 * the mouse wheel, so the strip never captures the page's scrolling.
 */
import { useId } from 'react';
import { INPUT_KINDS } from '../core/types';
import { NamedSelect, Row, Select, StopSlider, TypedNumber } from '../controls/Controls';
import type { EmbedControlId } from '../store/embed';
import { D_STOPS, M_STOPS, N_STOPS, SCALE_RANGE } from '../store/params';
import { useStore } from '../store/react';
import { CausalToggle, ScaleRange } from '../ui/param-controls';
import { useStrings } from '../ui/strings';

/** The slider covers the scales worth dragging through; the typed entry takes the full range. */
const SCALE_SLIDER = { min: 0.05, max: 3, step: 0.05 } as const;

function ScaleControl() {
  const t = useStrings();
  const id = useId();
  const scale = useStore((s) => s.params.scale);
  return (
    <Row label={t.controls.scale} htmlFor={id}>
      <ScaleRange id={id} {...SCALE_SLIDER} label={t.controls.scale} />
      <TypedNumber
        param="scale"
        value={scale}
        label={t.controls.typedRange(t.controls.scale, SCALE_RANGE.min, SCALE_RANGE.max)}
        width={5}
      />
    </Row>
  );
}

function SeedControl() {
  const t = useStrings().controls;
  const id = useId();
  const seed = useStore((s) => s.params.seed);
  return (
    <Row label={t.seed} htmlFor={id}>
      <TypedNumber id={id} param="seed" value={seed} label={t.seed} width={6} />
    </Row>
  );
}

function EmbedControl({ id }: { id: EmbedControlId }) {
  const t = useStrings().controls;
  switch (id) {
    case 'n':
      return <StopSlider param="n" label={t.n} stops={N_STOPS} />;
    case 'd':
      return <StopSlider param="d" label={t.d} stops={D_STOPS} />;
    case 'm':
      return <StopSlider param="m" label={t.m} stops={M_STOPS} />;
    case 'scale':
      return <ScaleControl />;
    case 'map':
      return <NamedSelect param="featureMap" compact />;
    case 'proj':
      return <NamedSelect param="projection" compact />;
    case 'input':
      return <Select param="input" label={t.input} options={INPUT_KINDS} names={t.inputNames} />;
    case 'causal':
      return <CausalToggle label={t.causal} className="control control-inline" />;
    case 'seed':
      return <SeedControl />;
  }
}

export function EmbedControls({ ids }: { ids: readonly EmbedControlId[] }) {
  const t = useStrings().embedding;
  if (!ids.length) return null;
  return (
    <form
      className="embed-controls"
      aria-label={t.strip}
      data-embed-controls={ids.join(',')}
      onSubmit={(e) => e.preventDefault()}
    >
      {ids.map((id) => (
        <EmbedControl key={id} id={id} />
      ))}
    </form>
  );
}
