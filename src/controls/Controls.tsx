/**
 * The experiment's controls. Sliders move over snapped stops (log scale for n, d, m); every number
 * also has a text box that accepts any valid value (validated and clamped by the store, with a
 * message when it is not). Changes go straight to the store; the controller coalesces them into at
 * most one engine request in flight, so dragging never queues work on the main thread.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useStrings } from '../ui/strings';
import { featureDim, usesProjection } from '../core/feature-maps';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { LIMITS } from '../core/limits';
import { taylor2MaxD } from '../core/validate';
import { FEATURE_MAPS, PROJECTIONS, STABILIZERS, type AttentionParams } from '../core/types';
import { fmt, fmtInt } from '../charts/format';
import { useUploadLocked } from './UploadControls';
import { InputSelect } from './InputSelect';
import { D_STOPS, M_STOPS, N_STOPS, type ParamKey } from '../store/params';
import { useActions, useStore } from '../store/react';
import { CausalToggle, ScaleRange, StopRange } from '../ui/param-controls';

export function TypedNumber({
  param,
  value,
  label,
  width = 7,
  id,
  disabled,
}: {
  param: ParamKey;
  value: number;
  label: string;
  width?: number;
  id?: string;
  disabled?: boolean;
}) {
  const actions = useActions();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    if (text.trim() === String(value)) return;
    if (!actions.setParam(param, text)) setText(String(value));
  };
  return (
    <input
      id={id}
      className="typed"
      type="text"
      inputMode="decimal"
      size={width}
      aria-label={label}
      data-param-input={param}
      disabled={disabled}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setText(String(value));
      }}
    />
  );
}

export function Row({
  label,
  htmlFor,
  help,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  help?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="control">
      <label htmlFor={htmlFor}>{label}</label>
      <div className="control-input">{children}</div>
      {help && <div className="help">{help}</div>}
    </div>
  );
}

/** Slider over a list of stops plus a typed entry; the slider shows the stop nearest to the value. */
export function StopSlider({
  param,
  label,
  help,
  stops,
}: {
  param: 'n' | 'd' | 'm';
  label: string;
  help?: ReactNode;
  stops: readonly number[];
}) {
  const id = useId();
  const t = useStrings().controls;
  const value = useStore((s) => s.params[param]);
  const locked = useUploadLocked(param);
  const tu = useStrings().upload;
  const lockedHelp = useStore((s) => !!s.upload.active?.trained) ? tu.lockedHelpTrained : tu.lockedHelp;
  return (
    <Row label={label} htmlFor={id} help={locked ? lockedHelp : help}>
      <StopRange id={id} param={param} stops={stops} label={label} disabled={locked} />
      <TypedNumber param={param} value={value} label={t.typed(label)} disabled={locked} />
    </Row>
  );
}

export function Select<K extends 'featureMap' | 'projection' | 'input' | 'stabilizer'>({
  param,
  label,
  options,
  names,
  fullNames,
  compact,
  disabled,
  help,
}: {
  param: K;
  label: string;
  options: readonly AttentionParams[K][];
  /** what each option reads (short enough for the select: a chosen option's text is not wrapped) */
  names: Record<string, string>;
  /**
   * the full name of each option: the select's tooltip, and shown under it where it says more than
   * the option (not `compact`: an embed's strip of controls keeps one line per control)
   */
  fullNames?: Record<string, string>;
  compact?: boolean;
  disabled?: boolean;
  help?: ReactNode;
}) {
  const id = useId();
  const value = useStore((s) => s.params[param]);
  const actions = useActions();
  const full = fullNames?.[value as string];
  const under = !compact && full && full !== names[value as string] ? full : help;
  return (
    <Row label={label} htmlFor={id} help={under}>
      <select
        id={id}
        title={full}
        value={value as string}
        data-param={param}
        disabled={disabled}
        onChange={(e) => actions.setParam(param, e.target.value)}
      >
        {options.map((o) => (
          <option key={o as string} value={o as string}>
            {names[o as string]}
          </option>
        ))}
      </select>
    </Row>
  );
}

/**
 * Scale from which the structured inputs show their pattern (scale²·√d must clearly exceed log n:
 * at n = 128, d = 16 clustered queries put ~86 % of their weight on their own cluster at s = 1.2,
 * ~25 % at s = 0.5), offered as a one-click fix rather than changed behind the user's back.
 */
const STRUCTURED_SCALE = 1.5;

/** The d slider's note under the second-order Taylor map: its 1 + d + d² features, or why d is too large. */
function TaylorDimHelp({ d }: { d: number }) {
  const te = useStrings().estimators;
  const mp = featureDim('taylor2', 0, d);
  if (mp <= LIMITS.featureDimMax) return <>{te.taylorDim(fmtInt(mp))}</>;
  return (
    <span role="alert" data-warning="taylor2-d">
      {te.taylorTooLarge(d, fmtInt(mp), fmtInt(LIMITS.featureDimMax), taylor2MaxD())}
    </span>
  );
}

export function Controls() {
  const t = useStrings().controls;
  const actions = useActions();
  const p = useStore((s) => s.params);
  const scaleId = useId();
  const seedId = useId();
  const mp = featureDim(p.featureMap, p.m, p.d);
  const proj = usesProjection(p.featureMap);
  const uploaded = useStore((s) => s.upload.active);
  const tu = useStrings().upload;
  return (
    <form className="controls" aria-label={t.heading} onSubmit={(e) => e.preventDefault()}>
      <h2 className="controls-title">{t.heading}</h2>
      <StopSlider param="n" label={t.n} help={t.nHelp} stops={N_STOPS} />
      <StopSlider
        param="d"
        label={t.d}
        help={p.featureMap === 'taylor2' ? <TaylorDimHelp d={p.d} /> : undefined}
        stops={D_STOPS}
      />
      <StopSlider param="m" label={t.m} help={proj ? t.mHelp(fmtInt(mp)) : t.noProjection} stops={M_STOPS} />
      <NamedSelect param="featureMap" />
      <NamedSelect param="projection" disabled={!proj} />
      <InputSelect />
      <StabilizerSelect />
      <Row
        label={t.scale}
        htmlFor={scaleId}
        help={
          uploaded ? (
            (uploaded.trained ? tu.scaleLockedTrained : tu.scaleLocked)(fmt(uploaded.rms))
          ) : p.input !== 'gaussian' && p.scale < STRUCTURED_SCALE ? (
            <>
              {t.structuredHint(STRUCTURED_SCALE)}{' '}
              <button
                type="button"
                className="link-button"
                data-action="structured-scale"
                onClick={() => actions.setParam('scale', STRUCTURED_SCALE)}
              >
                {t.structuredAction(STRUCTURED_SCALE)}
              </button>
            </>
          ) : (
            t.scaleHelp
          )
        }
      >
        <ScaleRange id={scaleId} min={0.05} max={2} step={0.05} label={t.scale} disabled={!!uploaded} />
        <TypedNumber param="scale" value={p.scale} label={t.typed(t.scale)} width={5} disabled={!!uploaded} />
      </Row>
      <CausalToggle label={t.causal} className="control control-inline" />
      <Row label={t.seed} htmlFor={seedId}>
        <TypedNumber id={seedId} param="seed" value={p.seed} label={t.seed} width={6} />
        <button
          type="button"
          onClick={() => actions.redrawFeatures()}
          title={t.redrawHelp}
          disabled={!proj}
          data-action="redraw"
        >
          {t.redraw}
        </button>
        <span className="help">{t.featureSeed(p.featureSeed)}</span>
      </Row>
      <button type="button" className="reset" onClick={() => actions.resetParams()}>
        {t.reset}
      </button>
    </form>
  );
}

/**
 * The feature map or the projection W: each option by a name that fits the select, the chosen one's
 * full name (its source) its tooltip and, unless `compact` (an embed's strip), under it.
 */
export function NamedSelect({
  param,
  compact,
  disabled,
}: {
  param: 'featureMap' | 'projection';
  compact?: boolean;
  disabled?: boolean;
}) {
  const t = useStrings().controls;
  const map = param === 'featureMap';
  return (
    <Select
      param={param}
      label={map ? t.featureMap : t.projection}
      options={map ? FEATURE_MAPS : PROJECTIONS}
      names={map ? t.mapChoices : t.projChoices}
      fullNames={map ? t.mapNames : t.projNames}
      compact={compact}
      disabled={disabled}
    />
  );
}

/** The stabilizer of the exponential maps (URL `stab`); only those maps use it. */
function StabilizerSelect() {
  const st = useStrings().stab;
  const map = useStore((s) => s.params.featureMap);
  const uses = FEATURE_MAP_SPECS[map].eps;
  return (
    <Select
      param="stabilizer"
      label={st.label}
      options={STABILIZERS}
      names={st.names}
      help={st.help}
      disabled={!uses}
    />
  );
}
