/**
 * FAVOR+'s random projections W (m×dh per layer and head), fixed during a step and redrawn by the
 * trainer every `redraw` steps. Draw k of (layer l, head h) comes from its own stream
 * deriveSeed(seed, `favor/l/h/k`), so a run's draws never depend on the other heads' or on when a
 * backend asks for them.
 */
import { randomProjection } from '../projections';
import { createRng, deriveSeed } from '../rng';
import { headDim } from './model-params';
import type { ModelConfig } from './types';

export function drawFeatureW(cfg: ModelConfig, seed: number, draw: number): Float32Array[][] | null {
  const a = cfg.attention;
  if (a.kind !== 'linear' || a.map !== 'positive') return null;
  const dh = headDim(cfg);
  const out: Float32Array[][] = [];
  for (let l = 0; l < cfg.layers; l++) {
    const row: Float32Array[] = [];
    for (let h = 0; h < cfg.heads; h++) {
      const rng = createRng(deriveSeed(seed, `favor/${l}/${h}/${draw}`));
      row.push(randomProjection(a.proj, a.m, dh, rng).data);
    }
    out.push(row);
  }
  return out;
}

/** The draw index in use at (0-based) step t: ⌊t / redraw⌋, or 0 when never redrawn. */
export function drawIndex(cfg: ModelConfig, step: number): number {
  const a = cfg.attention;
  return a.kind === 'linear' && a.redraw > 0 ? Math.floor(step / a.redraw) : 0;
}
