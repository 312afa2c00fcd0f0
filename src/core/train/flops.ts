/**
 * FLOP model of one training step (forward + backward), for the progress estimate and the bench's
 * GFLOP/s. A multiply-add counts 2. Forward, N = B·L rows, per layer:
 *   projections Q, K, V, O: 4·2·N·D²;  MLP: 2·2·N·D·4D;
 *   softmax attention: 2·2·B·H·L²·dh (S = QKᵀ and PV; causal halves it);
 *   linear attention: feature maps (positive 2·2·N·H·m·dh, hedgehog 2·2·N·H·dh·m, others ~N·H·F)
 *     + 2·2·N·H·F·dh (S, z and the read-out), window w: 2·2·N·H·w'·(F + dh) with w' the kept band;
 *   output head: 2·N·D·V.
 * Backward ≈ 2× forward (two products per forward product), so a step ≈ 3× forward.
 * Layer norms, GELU, softmax exp and AdamW are O(N·D) or O(params) and left out.
 */
import { featureCount } from './feature-map-grad';
import type { ModelConfig } from './types';

export function forwardFlops(cfg: ModelConfig, batch: { batch: number; seqLen: number }): number {
  const B = batch.batch;
  const L = batch.seqLen;
  const N = B * L;
  const D = cfg.dModel;
  const H = cfg.heads;
  const dh = D / H;
  let layer = 8 * N * D * D;
  if (cfg.mlp) layer += 16 * N * D * D;
  const a = cfg.attention;
  if (a.kind === 'softmax') {
    layer += 4 * B * H * L * L * dh * (cfg.causal ? 0.5 : 1);
  } else {
    const F = featureCount(a.map, a.m, dh);
    if (a.map === 'positive' || a.map === 'hedgehog') layer += 2 * 2 * N * H * a.m * dh;
    else layer += 2 * N * H * F;
    if (a.window > 0) {
      const band = Math.min(L, cfg.causal ? a.window : 2 * a.window - 1);
      layer += 4 * N * H * band * (F + dh);
    } else {
      layer += 4 * N * H * F * dh;
    }
  }
  return cfg.layers * layer + 2 * N * D * cfg.vocab;
}

export function trainStepFlops(cfg: ModelConfig, batch: { batch: number; seqLen: number }): number {
  return 3 * forwardFlops(cfg, batch);
}
