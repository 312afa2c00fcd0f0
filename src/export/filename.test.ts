import { describe, expect, it } from 'vitest';
import { tableCsv } from './csv';
import { exportFileName, slug } from './filename';

const p = { n: 256, d: 16, m: 64, featureMap: 'positive' as const, scale: 0.5, causal: false };

describe('export file names', () => {
  it('say what the file holds and every parameter that shapes it', () => {
    expect(exportFileName('A-exact', p, 'png')).toBe('performer-A-exact-n256-d16-m64-positive-s0.5.png');
    expect(exportFileName('error vs m', { ...p, causal: true }, 'svg')).toBe(
      'performer-error-vs-m-n256-d16-m64-positive-s0.5-causal.svg',
    );
  });
  it('keep only file-system-safe ASCII', () => {
    expect(slug('  |A − Â| / σ ')).toBe('A-A');
    expect(slug('熵 entropy')).toBe('entropy');
  });
});

describe('CSV of a data table', () => {
  it('has the header row, then one line per row, quoting commas and quotes, empty for missing values', () => {
    const csv = tableCsv(
      ['series', 'x', 'y'],
      [
        ['a, b', 1, 0.125],
        ['say "hi"', 2, null],
      ],
    );
    expect(csv).toBe('series,x,y\n"a, b",1,0.125\n"say ""hi""",2,\n');
  });
});
