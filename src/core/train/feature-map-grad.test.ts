import { describe, expect, it } from 'vitest';
import { randomProjection } from '../projections';
import { createRng } from '../rng';
import { featureBackward, featureCount, featureForward, type FeatureOpts } from './feature-map-grad';
import { dotLoss, gradCheck, gradCheckScaled, randArr } from './grad-check';
import { linearAttentionBackward, linearAttentionForward } from './linear-attention-train';
import type { TrainFeatureMap } from './types';

const B = 2;
const L = 4;
const dh = 3;
const m = 5;
const rows = B * L;

function opts(seed: number): FeatureOpts & { hw: Float64Array; hb: Float64Array } {
  const w = Float64Array.from(randomProjection('orthogonal-chi', m, dh, createRng(seed)).data);
  return { L, B, m, w, hw: randArr(dh * m, seed + 1), hb: randArr(m, seed + 2, 0.3) };
}

describe('feature maps: forward', () => {
  it('taylor2: φ(q)·φ(k) = 1 + q·k/√dh + (q·k)²/(2dh)', () => {
    const x = randArr(2 * dh, 71);
    const phi = featureForward('taylor2', x, 2, dh, 'query', opts(1));
    const F = featureCount('taylor2', m, dh);
    let dot = 0;
    let qk = 0;
    for (let f = 0; f < F; f++) dot += phi[f] * phi[F + f];
    for (let c = 0; c < dh; c++) qk += x[c] * x[dh + c];
    expect(dot).toBeCloseTo(1 + qk / Math.sqrt(dh) + (qk * qk) / (2 * dh), 12);
  });

  it('cosformer: φ(q_i)·φ(k_j) = relu(q_i)·relu(k_j)·cos(π(i−j)/2L)', () => {
    const x = randArr(rows * dh, 72);
    const phi = featureForward('cosformer', x, rows, dh, 'key', opts(1));
    const i = 1;
    const j = 3;
    let dot = 0;
    let rr = 0;
    for (let f = 0; f < 2 * dh; f++) dot += phi[i * 2 * dh + f] * phi[j * 2 * dh + f];
    for (let c = 0; c < dh; c++) rr += Math.max(x[i * dh + c], 0) * Math.max(x[j * dh + c], 0);
    expect(dot).toBeCloseTo(rr * Math.cos((Math.PI * (i - j)) / (2 * L)), 12);
  });

  it('positive: φ(q)·φ(k) up to the shifts estimates exp(q·k/√dh); every feature is > 0', () => {
    const o = opts(3);
    const x = randArr(rows * dh, 73, 0.5);
    const phi = featureForward('positive', x, rows, dh, 'key', o);
    for (const p of phi) expect(p).toBeGreaterThan(0);
  });

  it('hedgehog: both halves are softmax distributions over the m features', () => {
    const phi = featureForward('hedgehog', randArr(rows * dh, 74), rows, dh, 'query', opts(4));
    let s1 = 0;
    let s2 = 0;
    for (let f = 0; f < m; f++) {
      s1 += phi[f];
      s2 += phi[m + f];
    }
    expect(s1).toBeCloseTo(1, 12);
    expect(s2).toBeCloseTo(1, 12);
  });
});

describe('feature maps: backward vs central finite differences (rel err < 1e-6)', () => {
  const direct: TrainFeatureMap[] = ['elu1', 'relu', 'taylor2', 'cosformer', 'hedgehog'];
  for (const map of direct) {
    it(`${map}: dx${map === 'hedgehog' ? ', dWh, dbh' : ''}`, () => {
      const o = opts(81);
      const x = randArr(rows * dh, 82);
      const F = featureCount(map, m, dh);
      const r = randArr(rows * F, 83);
      const loss = () => dotLoss(featureForward(map, x, rows, dh, 'query', o), r);
      const phi = featureForward(map, x, rows, dh, 'query', o);
      const g = featureBackward(map, x, rows, dh, 'query', o, phi, r);
      expect(gradCheck(loss, x, g.dx)).toBeLessThan(1e-6);
      if (map === 'hedgehog') {
        expect(gradCheck(loss, o.hw, g.dhw!)).toBeLessThan(1e-6);
        expect(gradCheck(loss, o.hb, g.dhb!)).toBeLessThan(1e-6);
      }
    });
  }

  // FAVOR+'s shifts c are detached: they cancel only after the row normalization of Â, so the check
  // runs through the whole linear attention (φ(q), φ(k) → out), where the shift has no effect but
  // through δ = 1e-6: the detached-shift gradient is off by O(δ/den) in absolute terms, so the
  // check bounds max|a − n| / max|a| (measured ≈ 2e-4 on these shapes).
  for (const causal of [false, true]) {
    it(`positive through ${causal ? 'causal' : 'bidirectional'} linear attention: max|dq − fd|, max|dk − fd| < 1e-3·max|grad|`, () => {
      const o = opts(91);
      const q = randArr(rows * dh, 92, 0.7);
      const k = randArr(rows * dh, 93, 0.7);
      const v = randArr(rows * dh, 94);
      const r = randArr(rows * dh, 95);
      const fwd = () => {
        const pq = featureForward('positive', q, rows, dh, 'query', o);
        const pk = featureForward('positive', k, rows, dh, 'key', o);
        return { pq, pk, ...linearAttentionForward(pq, pk, v, B, L, 1, m, dh, causal, 0) };
      };
      const f = fwd();
      const d = linearAttentionBackward(f.pq, f.pk, v, f.den, f.out, r, B, L, 1, m, dh, causal, 0);
      const dq = featureBackward('positive', q, rows, dh, 'query', o, f.pq, d.dPhiQ).dx;
      const dk = featureBackward('positive', k, rows, dh, 'key', o, f.pk, d.dPhiK).dx;
      const loss = () => dotLoss(fwd().out, r);
      expect(gradCheckScaled(loss, q, dq)).toBeLessThan(1e-3);
      expect(gradCheckScaled(loss, k, dk)).toBeLessThan(1e-3);
    });
  }
});
