/**
 * Every map's series colour stays visible on the panels of both themes: a line, a dash pattern or a
 * point symbol in a colour too close to the background vanishes, worst on a projector. The colours
 * are palette.ts's; a `var(--…)` one is resolved from this stylesheet per theme.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rgb } from 'd3';
import { describe, expect, it } from 'vitest';
import { MAP_COLORS } from '../charts/palette';

const css = readFileSync(join(__dirname, 'styles.css'), 'utf8');
/** The custom properties of the first rule whose selector is exactly `selector`. */
function vars(selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}
const light = vars(':root');
const dark = { ...light, ...vars(":root[data-theme='dark']") };

const luminance = (c: string): number => {
  const { r, g, b } = rgb(c);
  const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
const resolve = (c: string, theme: Record<string, string>): string => {
  const m = /^var\((--[\w-]+)\)$/.exec(c);
  if (!m) return c;
  const v = theme[m[1]!];
  if (!v) throw new Error(`${m[1]} is not set in the theme`);
  return v;
};

describe('series colours against the panels', () => {
  for (const [name, theme] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it(`every map's colour has a contrast of at least 2:1 on the ${name} theme's panel (Okabe–Ito's yellow does not: 1.2:1 on light)`, () => {
      const panel = theme['--panel']!;
      const low = Object.entries(MAP_COLORS)
        .map(([map, c]) => ({ map, colour: resolve(c, theme), ratio: contrast(resolve(c, theme), panel) }))
        .filter((x) => x.ratio < 2);
      expect(low).toEqual([]);
    });
  }

  it('the dark theme keeps Okabe–Ito yellow itself (bright on dark)', () => {
    expect(resolve(MAP_COLORS.cosformer, dark).toLowerCase()).toBe('#f0e442');
  });
});
