import katex from 'katex';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { katexOptions, prerenderedFormula } from '../i18n/formulas';
import { Formula } from './Formula';

const markup = (tex: string, inline = false) => renderToStaticMarkup(createElement(Formula, { tex, inline }));

describe('Formula', () => {
  it('shows a prerendered formula as the table’s HTML, not marked as rendered on the page (and the table holds display parts too)', () => {
    const tex = en.rank.formula.split('\\qquad')[0]!.trim();
    expect(prerenderedFormula(tex, true)).toBeDefined();
    const html = markup(en.names.mapTex.positive, true);
    expect(html).toBe(`<span class="formula-inline">${prerenderedFormula(en.names.mapTex.positive, false)}</span>`);
    expect(html).not.toContain('data-formula-lazy');
  });

  it('lays out a display formula of several equations part by part, each prerendered', () => {
    const html = markup(en.main.formula);
    expect(html.startsWith('<div class="formula formula-parts">')).toBe(true);
    expect(html.match(/class="formula-part"/g)).toHaveLength(3);
    expect(html).toContain('<annotation encoding="application/x-tex">A=\\operatorname{softmax}');
  });

  it('sets an inline formula of several equations as inline blocks, one per equation, with a break between, each prerendered', () => {
    const html = markup(en.names.mapTex.oprf, true);
    expect(html.startsWith('<span class="formula-inline formula-inline-parts">')).toBe(true);
    // φ(x) = …, A = …, ρ = … and the causal remark
    expect(html.match(/class="formula-inline-part"/g)).toHaveLength(4);
    expect(html.match(/<wbr\/>/g)).toHaveLength(3);
    expect(html).not.toContain('data-formula-lazy');
    expect(html).toContain('<annotation encoding="application/x-tex">\\rho=\\tfrac{1}{n^2 d}');
  });

  it('shows a formula without prerendered HTML as its TeX while KaTeX loads, then as KaTeX renders it', async () => {
    const tex = String.raw`\sqrt{\pi}\ne\tfrac{355}{113}`;
    expect(prerenderedFormula(tex, true)).toBeUndefined();
    expect(markup(tex)).toBe(
      `<div class="formula formula-pending" data-formula-lazy="">${tex.replace(/&/g, '&amp;')}</div>`,
    );
    await import('katex');
    await new Promise((r) => setTimeout(r, 0)); // the load's handler has run
    expect(markup(tex)).toBe(
      `<div class="formula" data-formula-lazy="">${katex.renderToString(tex, katexOptions(true))}</div>`,
    );
  });
});
