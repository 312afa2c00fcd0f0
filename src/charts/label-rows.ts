/**
 * Placement of the labels of vertical reference lines (crossovers, chosen m) along the top of a
 * plot. Two lines a few pixels apart — the measured and the predicted crossover — would print their
 * labels over each other; here each label goes right of its line (left when it would leave the
 * plot) in the first row where it overlaps no label already placed.
 */

export interface LabelBox {
  /** the line's x in plot pixels */
  x: number;
  /** the label's width in pixels */
  width: number;
}

export interface LabelPlacement {
  row: number;
  anchor: 'start' | 'end';
  /** x of the text anchor */
  textX: number;
}

/** Pixels between a line and its label, and between labels in one row. */
const PAD = 3;

/** Rows and anchors for labels of lines at `boxes[i].x` in a plot `plotWidth` wide; result in input order. */
export function placeLabels(boxes: readonly LabelBox[], plotWidth: number): LabelPlacement[] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.x - boxes[b]!.x);
  const rows: [number, number][][] = [];
  const out: LabelPlacement[] = new Array(boxes.length);
  for (const i of order) {
    const { x, width } = boxes[i]!;
    const end = x + PAD + width > plotWidth && x - PAD - width >= 0;
    const span: [number, number] = end ? [x - PAD - width, x - PAD] : [x + PAD, x + PAD + width];
    let row = 0;
    while (rows[row]?.some(([a, b]) => span[0] < b + PAD && a < span[1] + PAD)) row++;
    (rows[row] ??= []).push(span);
    out[i] = { row, anchor: end ? 'end' : 'start', textX: end ? x - PAD : x + PAD };
  }
  return out;
}
