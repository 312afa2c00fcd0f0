/**
 * Softmax cross-entropy over the masked rows: loss = (1/n) Σ_{r: mask_r=1} −log softmax(z_r)[t_r],
 * n = number of masked rows. dz_r = (softmax(z_r) − onehot(t_r)) / n on masked rows, 0 elsewhere,
 * so the caller's backward starts from the gradient of the mean loss. `correct` counts masked rows
 * whose argmax (ties → the lowest index, as the GPU reduction does) equals the target.
 */
import { like, type Arr } from './arr';

export function crossEntropyForward(
  logits: Arr,
  rows: number,
  V: number,
  targets: Int32Array,
  mask: Uint8Array,
): { loss: number; correct: number; count: number; dLogits: Arr } {
  const dLogits = like(logits, rows * V);
  let count = 0;
  for (let r = 0; r < rows; r++) if (mask[r]) count++;
  let loss = 0;
  let correct = 0;
  if (count === 0) return { loss: 0, correct: 0, count: 0, dLogits };
  for (let r = 0; r < rows; r++) {
    if (!mask[r]) continue;
    const o = r * V;
    let max = -Infinity;
    let arg = 0;
    for (let c = 0; c < V; c++) {
      if (logits[o + c] > max) {
        max = logits[o + c];
        arg = c;
      }
    }
    let sum = 0;
    for (let c = 0; c < V; c++) sum += Math.exp(logits[o + c] - max);
    const t = targets[r];
    loss += Math.log(sum) + max - logits[o + t];
    if (arg === t) correct++;
    for (let c = 0; c < V; c++) dLogits[o + c] = Math.exp(logits[o + c] - max) / sum / count;
    dLogits[o + t] -= 1 / count;
  }
  return { loss: loss / count, correct, count, dLogits };
}
