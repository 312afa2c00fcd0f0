import { describe, expect, it } from 'vitest';
import { SYMBOL_NAMES, symbolMark, symbolPath } from './symbols';
import { estimatorMark, MAP_SYMBOL, PROJECTION_SYMBOL } from './palette';
import { estimatorSet } from '../core/estimators';
import { PROJECTIONS } from '../core/types';

describe('symbols', () => {
  it('every symbol is a path of its own shape', () => {
    const paths = SYMBOL_NAMES.map((n) => symbolPath(n, 40));
    for (const d of paths) expect(d).toMatch(/^M[-\d.]/);
    // the fill and stroke circles share a path; every other shape differs
    expect(new Set(paths).size).toBe(SYMBOL_NAMES.length - 1);
  });

  it('fill symbols are filled in the colour, stroke symbols outlined in it', () => {
    expect(symbolMark('square', 3, 4, '#123456', 40)).toMatchObject({
      fill: '#123456',
      stroke: 'none',
      transform: 'translate(3,4)',
    });
    expect(symbolMark('times', 0, 0, '#123456', 40)).toMatchObject({ fill: 'none', stroke: '#123456' });
    expect(symbolMark('circle-open', 0, 0, 'red', 40)).toMatchObject({ fill: 'none', stroke: 'red' });
  });

  it('every feature map has its own symbol', () => {
    const symbols = Object.values(MAP_SYMBOL);
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it('no two estimators of any comparison share colour and symbol, whatever the projection and d', () => {
    for (const projection of PROJECTIONS)
      for (const d of [1, 4, 16, 64]) {
        const marks = estimatorSet(projection, d).map((e) => {
          const m = estimatorMark(e);
          return `${m.color} ${m.symbol}`;
        });
        expect(new Set(marks).size, `${projection}, d = ${d}: ${marks.join(' | ')}`).toBe(marks.length);
      }
  });

  it('a projection variant keeps its symbol when the experiment’s projection changes', () => {
    for (const p of PROJECTIONS)
      for (const current of PROJECTIONS.filter((c) => c !== p)) {
        const v = estimatorSet(current, 16).find((e) => e.id === `positive@${p}`)!;
        expect(estimatorMark(v).symbol).toBe(PROJECTION_SYMBOL[p]);
      }
    // the experiment's own positive features are positive's disc
    expect(estimatorMark(estimatorSet('iid', 16).find((e) => e.id === 'positive')!).symbol).toBe('circle');
  });
});
