import { describe, expect, it } from 'vitest';
import { focusKind, keyAction, targetStep } from './keys';

const k = (key: string, extra: object = {}) => ({ key, ...extra });

describe('lecture-mode keys', () => {
  it('clicker and keyboard keys navigate: → PageDown Space next, ← PageUp previous, Home End first/last', () => {
    expect(keyAction(k('ArrowRight'), true, 'other')).toBe('next');
    expect(keyAction(k('PageDown'), true, 'other')).toBe('next');
    expect(keyAction(k(' '), true, 'other')).toBe('next');
    expect(keyAction(k('ArrowLeft'), true, 'other')).toBe('prev');
    expect(keyAction(k('PageUp'), true, 'other')).toBe('prev');
    expect(keyAction(k('Home'), true, 'other')).toBe('first');
    expect(keyAction(k('End'), true, 'other')).toBe('last');
    expect(keyAction(k('?'), true, 'other')).toBe('help');
    expect(keyAction(k('Escape'), true, 'other')).toBe('exit');
    expect(keyAction(k('x'), true, 'other')).toBeNull();
  });

  it('P enters lecture mode from the page, and nothing else does', () => {
    expect(keyAction(k('p'), false, 'other')).toBe('enter');
    expect(keyAction(k('P'), false, 'other')).toBe('enter');
    expect(keyAction(k('ArrowRight'), false, 'other')).toBeNull();
    expect(keyAction(k('Escape'), false, 'other')).toBeNull();
  });

  it('no key fires while typing in a text field or select', () => {
    for (const key of ['p', 'ArrowRight', 'PageDown', 'Home', 'End', '?', 'Escape', ' ']) {
      expect(keyAction(k(key), true, 'text')).toBeNull();
      expect(keyAction(k(key), false, 'text')).toBeNull();
    }
  });

  it('a focused slider keeps its arrows, Home and End; PageUp/PageDown still change the slide', () => {
    for (const key of ['ArrowRight', 'ArrowLeft', 'Home', 'End', ' '])
      expect(keyAction(k(key), true, 'slider')).toBeNull();
    expect(keyAction(k('PageDown'), true, 'slider')).toBe('next');
    expect(keyAction(k('PageUp'), true, 'slider')).toBe('prev');
  });

  it('Space belongs to a focused button; modified or already-handled keys are left alone', () => {
    expect(keyAction(k(' '), true, 'button')).toBeNull();
    expect(keyAction(k('ArrowRight'), true, 'button')).toBe('next');
    expect(keyAction(k('ArrowRight', { ctrlKey: true }), true, 'other')).toBeNull();
    expect(keyAction(k('p', { metaKey: true }), false, 'other')).toBeNull();
    expect(keyAction(k('ArrowRight', { defaultPrevented: true }), true, 'other')).toBeNull();
  });

  it('targetStep stays within 1 … count', () => {
    expect(targetStep('next', 3, 10)).toBe(4);
    expect(targetStep('next', 10, 10)).toBe(10);
    expect(targetStep('prev', 1, 10)).toBe(1);
    expect(targetStep('first', 7, 10)).toBe(1);
    expect(targetStep('last', 2, 10)).toBe(10);
    expect(targetStep('help', 2, 10)).toBeNull();
  });
});

describe('focusKind', () => {
  const el = (tagName: string, type?: string, editable = false) =>
    ({
      tagName,
      isContentEditable: editable,
      getAttribute: (a: string) => (a === 'type' ? (type ?? null) : null),
    }) as unknown as Element;
  it('text fields, selects and editable content are for typing; sliders and buttons are controls', () => {
    expect(focusKind(el('INPUT', 'text'))).toBe('text');
    expect(focusKind(el('INPUT'))).toBe('text');
    expect(focusKind(el('INPUT', 'number'))).toBe('text');
    expect(focusKind(el('TEXTAREA'))).toBe('text');
    expect(focusKind(el('SELECT'))).toBe('text');
    expect(focusKind(el('DIV', undefined, true))).toBe('text');
    expect(focusKind(el('INPUT', 'range'))).toBe('slider');
    expect(focusKind(el('INPUT', 'checkbox'))).toBe('button');
    expect(focusKind(el('BUTTON'))).toBe('button');
    expect(focusKind(el('H1'))).toBe('other');
    expect(focusKind(null)).toBe('other');
  });
});
