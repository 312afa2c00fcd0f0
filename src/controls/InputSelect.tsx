/**
 * The input selector: the generated kinds (Gaussian, clustered, local) and "Trained head", which
 * loads head 0 of layer 0 of the default bundled model (src/store/trained.ts) and opens the head
 * picker. Choosing a generated kind again removes the head and restores the parameters of before.
 * Disabled while uploaded files are in use (they decide the inputs).
 */
import { useId, useMemo } from 'react';
import { INPUT_KINDS } from '../core/types';
import { useActions, useAppStore, useStore } from '../store/react';
import { DEFAULT_TRAINED, selectTrained } from '../store/trained';
import { createUploadActions } from '../store/upload';
import { useStrings } from '../ui/strings';
import { Row } from './Controls';

export const TRAINED_OPTION = 'trained';

export function InputSelect() {
  const id = useId();
  const t = useStrings();
  const store = useAppStore();
  const actions = useActions();
  const upload = useMemo(() => createUploadActions(store), [store]);
  const input = useStore((s) => s.params.input);
  const active = useStore((s) => s.upload.active);
  const pending = useStore((s) => s.upload.pendingTrained);
  // a head on its way counts: choosing a generated kind drops it (upload.remove clears the pending selection)
  const trained = !!active?.trained || (!active && !!pending);
  return (
    <Row label={t.controls.input} htmlFor={id}>
      <select
        id={id}
        value={trained ? TRAINED_OPTION : input}
        data-param="input"
        disabled={!!active && !trained}
        onChange={(e) => {
          const v = e.target.value;
          if (v === TRAINED_OPTION) return void selectTrained(store, actions, DEFAULT_TRAINED);
          if (trained) upload.remove();
          actions.setParam('input', v);
        }}
      >
        {INPUT_KINDS.map((o) => (
          <option key={o} value={o}>
            {t.controls.inputNames[o]}
          </option>
        ))}
        <option value={TRAINED_OPTION}>{t.trained.inputOption}</option>
      </select>
    </Row>
  );
}
