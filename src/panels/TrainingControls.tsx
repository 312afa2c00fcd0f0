/**
 * The training comparison's settings: task, the 2–4 attention kinds, what comes before attention
 * (token shift / short conv), the model's sizes, steps, batch, seeds, learning rates (auto per kind
 * or typed) and the LR sweep. Every change goes through the controller's strict setup parser (the
 * same rules as `train=` in the URL), so a refused value keeps the previous one and says why.
 */
import { useId, type ReactNode } from 'react';
import { PROJECTIONS } from '../core/types';
import {
  MAX_KINDS,
  MIN_KINDS,
  SETUP_LIMITS,
  SHORT_CONVS,
  TASK_KINDS,
  taskSizes,
  TRAIN_KINDS,
  TRAIN_TASKS,
  TRANSFER_KINDS,
  adaptKinds,
  type NumericField,
  type TrainKind,
  type TrainTask,
  type TrainingSetup,
} from '../engine/training-setup';
import { useStore, useTrainingController } from '../store/react';
import { isTraining } from '../store/training';
import { kindName } from '../ui/training/kinds';
import { useStrings } from '../ui/strings';

function Field({ label, children, help }: { label: string; children: (id: string) => ReactNode; help?: string }) {
  const id = useId();
  return (
    <div className="inline-control">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {help && <span className="help">{help}</span>}
    </div>
  );
}

export function TrainingControls({ setup }: { setup: TrainingSetup }) {
  const t = useStrings();
  const tt = t.training;
  const ctl = useTrainingController();
  const busy = useStore((s) => isTraining(s.training));
  if (!ctl) return null;
  const set = (p: Partial<TrainingSetup>) => ctl.setSetup({ ...setup, ...p });

  const transfer = setup.transfer;
  const kindOptions = transfer ? TRANSFER_KINDS : TRAIN_KINDS;
  const minKinds = transfer ? 1 : MIN_KINDS;
  const setTransfer = (on: boolean) => {
    const kinds = adaptKinds(setup.kinds, on);
    set({ transfer: on, kinds, lr: kinds.map(() => 'auto'), sweep: on ? false : setup.sweep });
  };
  const num = (field: NumericField, label: string) => (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          type="number"
          data-train-field={field}
          min={SETUP_LIMITS[field][0]}
          max={SETUP_LIMITS[field][1]}
          step={1}
          value={setup[field]}
          disabled={busy}
          onChange={(e) => {
            const v = e.target.valueAsNumber;
            if (Number.isFinite(v)) set({ [field]: v });
          }}
        />
      )}
    </Field>
  );

  const setKind = (i: number, kind: TrainKind) => {
    const kinds = setup.kinds.slice();
    const j = kinds.indexOf(kind);
    if (j >= 0) kinds[j] = kinds[i]; // picking a kind already listed swaps the two
    kinds[i] = kind;
    const lr = setup.lr.slice();
    if (j >= 0) [lr[i], lr[j]] = [lr[j], lr[i]];
    set({ kinds, lr });
  };
  const addKind = () => {
    const next = kindOptions.find((k) => !setup.kinds.includes(k));
    if (next) set({ kinds: [...setup.kinds, next], lr: [...setup.lr, 'auto'] });
  };
  const removeKind = (i: number) =>
    set({ kinds: setup.kinds.filter((_, k) => k !== i), lr: setup.lr.filter((_, k) => k !== i) });
  const usesM = setup.kinds.some((k) => /^(positive|hedgehog)/.test(k));
  const usesWindow = setup.kinds.some((k) => k.endsWith('-local'));

  return (
    <fieldset className="training-controls" disabled={busy}>
      <Field label={tt.task} help={tt.taskHelp[setup.task]}>
        {(id) => (
          <select
            id={id}
            data-train-field="task"
            value={setup.task}
            onChange={(e) => {
              const task = e.target.value as TrainTask;
              const kinds = transfer ? adaptKinds(TASK_KINDS[task], true) : TASK_KINDS[task];
              // between MQAR and the grammar tasks the sizes follow the task's tuned defaults
              const sizes = (task === 'mqar') !== (setup.task === 'mqar') ? taskSizes(task) : {};
              set({ task, kinds, lr: kinds.map(() => 'auto'), ...sizes });
            }}
          >
            {TRAIN_TASKS.map((k) => (
              <option key={k} value={k}>
                {tt.tasks[k]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="training-kinds" role="group" aria-label={transfer ? tt.transfer.kinds : tt.kinds}>
        <span className="label">{transfer ? tt.transfer.kinds : tt.kinds}</span>{' '}
        <span className="help">{transfer ? tt.transfer.kindsHelp : tt.kindsHelp}</span>
        {setup.kinds.map((kind, i) => (
          <div key={i} className="training-kind">
            <select
              aria-label={tt.kind(i)}
              data-train-kind={i}
              value={kind}
              onChange={(e) => setKind(i, e.target.value as TrainKind)}
            >
              {kindOptions.map((k) => (
                <option key={k} value={k}>
                  {kindName(k, t)}
                </option>
              ))}
            </select>
            <input
              aria-label={tt.lrOf(kindName(kind, t))}
              className="training-lr"
              type="text"
              inputMode="decimal"
              size={7}
              placeholder={tt.lrAuto}
              title={tt.lrHelp}
              value={setup.lr[i] === 'auto' ? '' : String(setup.lr[i])}
              onChange={(e) => {
                const raw = e.target.value.trim();
                const lr = setup.lr.slice();
                lr[i] = raw === '' ? 'auto' : Number(raw);
                if (raw === '' || Number.isFinite(lr[i] as number)) set({ lr });
              }}
            />
            {setup.kinds.length > minKinds && (
              <button
                type="button"
                className="small"
                aria-label={tt.removeKind(kindName(kind, t))}
                onClick={() => removeKind(i)}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {setup.kinds.length < MAX_KINDS && (
          <button type="button" className="small" data-action="train-add-kind" onClick={addKind}>
            {tt.addKind}
          </button>
        )}
      </div>
      <Field label={tt.shortConv} help={tt.shortConvHelp}>
        {(id) => (
          <select
            id={id}
            data-train-field="conv"
            value={setup.shortConv}
            onChange={(e) => set({ shortConv: e.target.value as TrainingSetup['shortConv'] })}
          >
            {SHORT_CONVS.map((c) => (
              <option key={c} value={c}>
                {tt.convs[c]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="training-sizes">
        {setup.task === 'mqar' && num('pairs', tt.pairs)}
        {num('seqLen', tt.seqLen)}
        {num('dModel', tt.dModel)}
        {num('heads', tt.heads)}
        {num('layers', tt.layers)}
        {usesM && num('m', tt.m)}
        {usesWindow && num('window', tt.window)}
        {num('steps', transfer ? tt.transfer.steps : tt.steps)}
        {transfer && num('tune', tt.transfer.tune)}
        {transfer && setup.kinds.includes('hedgehog') && num('fit', tt.transfer.fit)}
        {num('batch', tt.batch)}
        {num('seeds', tt.seeds)}
        {num('seed', tt.seed)}
      </div>
      {usesM && (
        <Field label={tt.proj}>
          {(id) => (
            <select id={id} value={setup.proj} onChange={(e) => set({ proj: e.target.value as TrainingSetup['proj'] })}>
              {PROJECTIONS.map((p) => (
                <option key={p} value={p}>
                  {t.names.projections[p]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div className="inline-control">
        <label>
          <input type="checkbox" checked={setup.mlp} onChange={(e) => set({ mlp: e.target.checked })} /> {tt.mlp}
        </label>
        {!transfer && (
          <label>
            <input
              type="checkbox"
              data-train-field="sweep"
              checked={setup.sweep}
              onChange={(e) => set({ sweep: e.target.checked })}
            />{' '}
            {tt.sweep}
          </label>
        )}
        <label title={tt.transfer.fieldHelp}>
          <input
            type="checkbox"
            data-train-field="transfer"
            checked={transfer}
            onChange={(e) => setTransfer(e.target.checked)}
          />{' '}
          {tt.transfer.field}
        </label>
      </div>
    </fieldset>
  );
}
