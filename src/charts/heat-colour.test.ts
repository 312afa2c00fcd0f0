import { describe, expect, it } from 'vitest';
import { colourCells, NEGATIVE_COLOR } from './heat-colour';
import { heatScale } from './palette';

describe('colourCells', () => {
  it('colours every cell as the HeatScale does (linear and log), negatives and NaN in NEGATIVE_COLOR', () => {
    const cells = 4;
    const data = Float32Array.from([0, 0.1, 0.25, 0.5, 1, 2, -0.5, NaN, 1e-6, 1e-3, 0.75, 0.9, 0.01, 0.2, 0.3, 0.4]);
    for (const mode of ['linear', 'log'] as const) {
      const scale = heatScale(1, mode);
      const px = colourCells(data, cells, scale);
      expect(px.length).toBe(cells * cells * 4);
      for (let k = 0; k < data.length; k++) {
        const v = data[k]!;
        const i = Number.isNaN(v) ? -1 : scale.index(v);
        const want =
          i < 0
            ? [1, 3, 5].map((o) => parseInt(NEGATIVE_COLOR.slice(o, o + 2), 16))
            : [scale.lut[i * 3], scale.lut[i * 3 + 1], scale.lut[i * 3 + 2]];
        expect([px[k * 4], px[k * 4 + 1], px[k * 4 + 2], px[k * 4 + 3]]).toEqual([...want, 255]);
      }
    }
  });
});
