/**
 * Lecture-mode keys, as pure functions so they can be tested without a DOM. Presentation clickers
 * send PageUp / PageDown (some send arrows), so both move between slides. Keys never fire while
 * the user types in a text field or a select; on a focused slider the arrows, Home and End move
 * the slider (its own keys), while PageUp / PageDown still change the slide; Space belongs to a
 * focused button or checkbox.
 */

export type KeyAction = 'next' | 'prev' | 'first' | 'last' | 'help' | 'exit' | 'enter';

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** set when a control under the pointer/focus already handled the key (e.g. a heatmap's arrows) */
  defaultPrevented?: boolean;
}

/** What the focused element is, as far as keys are concerned. */
export type FocusKind = 'text' | 'slider' | 'button' | 'other';

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', 'date', 'time', '']);

/** Classifies the element that has focus (null/undefined: nothing in particular). */
export function focusKind(el: Element | null | undefined): FocusKind {
  if (!el) return 'other';
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return 'text';
  if ((el as HTMLElement).isContentEditable) return 'text';
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (type === 'range') return 'slider';
    if (TEXT_INPUT_TYPES.has(type)) return 'text';
    return 'button'; // checkbox, radio, button: Space is theirs
  }
  if (tag === 'button' || tag === 'a' || tag === 'summary') return 'button';
  return 'other';
}

/**
 * The action a key press asks for. In the normal app only `P` (enter lecture mode) counts; in
 * lecture mode: → / PageDown / Space next, ← / PageUp previous, Home / End first / last, `?` the key
 * list, Esc leave. Modified keys (Ctrl, Cmd, Alt) are left to the browser.
 */
export function keyAction(e: KeyLike, present: boolean, focus: FocusKind): KeyAction | null {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (focus === 'text') return null;
  if (!present) return e.key === 'p' || e.key === 'P' ? 'enter' : null;
  const sliderOwns = focus === 'slider';
  switch (e.key) {
    case 'ArrowRight':
      return sliderOwns ? null : 'next';
    case 'ArrowLeft':
      return sliderOwns ? null : 'prev';
    case 'PageDown':
      return 'next';
    case 'PageUp':
      return 'prev';
    case ' ':
      return focus === 'other' ? 'next' : null;
    case 'Home':
      return sliderOwns ? null : 'first';
    case 'End':
      return sliderOwns ? null : 'last';
    case '?':
      return 'help';
    case 'Escape':
      return 'exit';
    default:
      return null;
  }
}

/** The slide an action leads to (1-based, within 1 … count); null for actions that do not move. */
export function targetStep(action: KeyAction, step: number, count: number): number | null {
  switch (action) {
    case 'next':
      return Math.min(count, step + 1);
    case 'prev':
      return Math.max(1, step - 1);
    case 'first':
      return 1;
    case 'last':
      return count;
    default:
      return null;
  }
}

/** The key list shown by `?` (the words come from the strings; these are the keys). */
export const KEY_LIST: readonly { keys: readonly string[]; action: Exclude<KeyAction, 'enter'> | 'enter' }[] = [
  { keys: ['→', 'PageDown', 'Space'], action: 'next' },
  { keys: ['←', 'PageUp'], action: 'prev' },
  { keys: ['Home'], action: 'first' },
  { keys: ['End'], action: 'last' },
  { keys: ['?'], action: 'help' },
  { keys: ['Esc'], action: 'exit' },
  { keys: ['P'], action: 'enter' },
];
