/**
 * Placement of the labels of vertical reference lines (crossovers, chosen m) along the top of a
 * plot. Two lines a few pixels apart — the measured and the predicted crossover — would print their
 * labels over each other; here each label goes right of its line (left when it would leave the
 * plot; slid back inside the plot when it fits on neither side) in the first row where it overlaps
 * no label already placed.
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
    // a label too long for either side of its line (a narrow plot): slid left until it ends at the
    // plot's edge, over its line, rather than cut off there
    const start = end ? x - PAD - width : Math.max(0, Math.min(x + PAD, plotWidth - width));
    const span: [number, number] = [start, start + width];
    let row = 0;
    while (rows[row]?.some(([a, b]) => span[0] < b + PAD && a < span[1] + PAD)) row++;
    (rows[row] ??= []).push(span);
    out[i] = { row, anchor: end ? 'end' : 'start', textX: end ? x - PAD : start };
  }
  return out;
}
