import { describe, expect, it } from 'vitest';
import { placeLabels } from './label-rows';

describe('placeLabels', () => {
  it('puts labels of distant lines in the first row, right of their lines', () => {
    const p = placeLabels(
      [
        { x: 10, width: 50 },
        { x: 200, width: 50 },
      ],
      400,
    );
    expect(p.map((l) => l.row)).toEqual([0, 0]);
    expect(p.map((l) => l.anchor)).toEqual(['start', 'start']);
    expect(p[0]!.textX).toBe(13);
  });

  it('moves the label of a nearby line to a second row so the texts never overlap', () => {
    // the measured (x = 120) and FLOP-model (x = 100) crossovers of the speed chart
    const p = placeLabels(
      [
        { x: 120, width: 140 },
        { x: 100, width: 110 },
      ],
      600,
    );
    expect(p[1]!.row).toBe(0);
    expect(p[0]!.row).toBe(1);
  });

  it('anchors a label at the end of its line when it would leave the plot, and keeps it in row 0 when that frees the row', () => {
    const p = placeLabels(
      [
        { x: 20, width: 60 },
        { x: 380, width: 60 },
      ],
      400,
    );
    expect(p[1]).toEqual({ row: 0, anchor: 'end', textX: 377 });
    expect(p[0]!.row).toBe(0);
  });

  it('slides a label that fits on neither side of its line back inside the plot (ending at its edge), not past it', () => {
    // a 230 px label at x = 140 of a 280 px plot: 143 + 230 > 280 and 137 − 230 < 0
    const [p] = placeLabels([{ x: 140, width: 230 }], 280);
    expect(p).toEqual({ row: 0, anchor: 'start', textX: 50 });
    // wider than the plot: from its left edge
    expect(placeLabels([{ x: 140, width: 300 }], 280)[0]!.textX).toBe(0);
  });

  it('stacks three labels at the same x in three rows', () => {
    const p = placeLabels(
      [
        { x: 50, width: 30 },
        { x: 50, width: 30 },
        { x: 50, width: 30 },
      ],
      400,
    );
    expect(p.map((l) => l.row).sort()).toEqual([0, 1, 2]);
  });
});
