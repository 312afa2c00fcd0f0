/**
 * A step's scene applied to the store, so a slide shows the same experiment however it is reached.
 * Inputs are part of the scene: a step on generated inputs removes a trained head (or upload) that
 * the slide before left in force — `remove` restores the generated parameters of before — and then
 * sets its parameters; a step on a trained head selects it through the store's `selectTrained`
 * (unless that very head is in force already, so returning to the slide keeps its analyses) and
 * then sets the parameters the head leaves free. A file upload the page had when the lecture began
 * is no scene of any slide: `setUploadAside` takes it out for the lecture and puts it back after.
 */
import type { TrainedSelection } from '../core/trained/configs';
import type { Actions, AppStore } from '../store/store';
import { selectTrained } from '../store/trained';
import { createUploadActions } from '../store/upload';
import type { UploadState } from '../store/upload-state';
import type { Step } from './story';

function sameHead(a: TrainedSelection | undefined, b: TrainedSelection): boolean {
  return (
    !!a &&
    a.model === b.model &&
    a.layer === b.layer &&
    a.head === b.head &&
    a.example === b.example &&
    a.text === b.text
  );
}

/** Puts `step`'s scene in force: its inputs (generated, or its trained head), then its parameters; unpins the row. */
export function applyStep(store: AppStore, actions: Actions, step: Step): void {
  const active = store.getState().upload.active;
  if (step.trained) {
    if (!sameHead(active?.trained, step.trained)) selectTrained(store, actions, step.trained);
  } else if (active || store.getState().upload.pendingTrained) {
    // (a head still on its way from a slide just left must not land on this one)
    createUploadActions(store).remove();
  }
  actions.setParams(step.params);
  actions.pinRow(null);
}

/**
 * Takes a file upload in force (not a trained head: that is a scene like any other) out of the
 * store for the lecture, restoring the generated inputs it replaced; the returned function puts it
 * back — the files, their n, d, scale and input kind — over whatever inputs the last slide had,
 * keeping the last slide's other parameters (as leaving lecture mode always does).
 */
export function setUploadAside(store: AppStore): () => void {
  const { upload, params } = store.getState();
  if (!upload.active || upload.active.trained) return () => {};
  const aside: UploadState = upload;
  const kept = { n: params.n, d: params.d, scale: params.scale, input: params.input };
  createUploadActions(store).remove();
  return () => {
    const s = store.getState();
    const ui =
      s.ui.pinnedRow !== null && s.ui.pinnedRow >= kept.n ? { ...s.ui, pinnedRow: null, hoveredRow: null } : s.ui;
    store.setState({ upload: aside, params: { ...s.params, ...kept }, ui });
  };
}
