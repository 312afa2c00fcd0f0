import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fmtText } from '../charts/format';
import { SciText } from './SciText';

const html = (text: string) => renderToStaticMarkup(createElement(SciText, { text }));

describe('SciText', () => {
  it('draws a power of ten’s exponent as a raised run of plain digits (the UI face has no superscript glyphs)', () => {
    expect(html(fmtText(8.8e6))).toBe('8.8×10<sup class="sci-exp">6</sup>');
    expect(html(fmtText(-2.19e-8))).toBe('−2.19×10<sup class="sci-exp">−8</sup>');
  });

  it('passes text without superscripts through unchanged', () => {
    expect(html('1.06')).toBe('1.06');
    expect(html('—')).toBe('—');
  });
});
