import { describe, expect, it } from 'vitest';
import { formulaParts } from '../ui/formula-parts';
// (here, not beside formula-parts.ts: the UI layer may not import the slides)

describe('formulaParts on every formula the app shows', () => {
  it('splits none into a part KaTeX cannot render (a \\left … \\right or a group cut in two)', async () => {
    const katex = (await import('katex')).default;
    const { en } = await import('../i18n/en');
    const { zh } = await import('../i18n/zh');
    const { STORY } = await import('./story');
    const texts: string[] = STORY.map((s) => s.tex);
    const walk = (v: unknown): void => {
      if (typeof v === 'string') texts.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk({ en, zh });
    const split = texts.filter((t) => formulaParts(t).length > 1);
    expect(split.length).toBeGreaterThanOrEqual(8);
    for (const tex of split)
      for (const part of formulaParts(tex))
        expect(
          () => katex.renderToString(part, { displayMode: true, throwOnError: true, strict: false }),
          part,
        ).not.toThrow();
  });
});
