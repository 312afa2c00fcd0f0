/**
 * Dev script: the gradient-check table of the CPU twins (max relative error of the analytic
 * gradient vs central finite differences in f64, per op and input), for the closing note.
 *   npx rolldown scripts/grad-table.ts --file /tmp/grad-table.mjs --platform node && node /tmp/grad-table.mjs
 */
import { randomProjection } from '../src/core/projections';
import { createRng } from '../src/core/rng';
import { embedBackward, embedForward } from '../src/core/train/embedding';
import { featureBackward, featureCount, featureForward } from '../src/core/train/feature-map-grad';
import { geluBackward, geluForward } from '../src/core/train/gelu';
import { dotLoss, gradCheck, gradCheckScaled, randArr } from '../src/core/train/grad-check';
import { layerNormBackward, layerNormForward } from '../src/core/train/layer-norm';
import { linearBackward, linearForward } from '../src/core/train/linear';
import { linearAttentionBackward, linearAttentionForward } from '../src/core/train/linear-attention-train';
import { crossEntropyForward } from '../src/core/train/cross-entropy';
import { shortConvBackward, shortConvForward } from '../src/core/train/short-conv';
import { softmaxAttentionBackward, softmaxAttentionForward } from '../src/core/train/softmax-attention';
import type { TrainFeatureMap } from '../src/core/train/types';

const rows: [string, number][] = [];
const add = (name: string, e: number) => rows.push([name, e]);

{
  const x = randArr(20, 1),
    w = randArr(12, 2),
    b = randArr(3, 3),
    r = randArr(15, 4);
  const g = linearBackward(x, 5, 4, w, 3, r);
  const f = () => dotLoss(linearForward(x, 5, 4, w, b, 3), r);
  add('linear', Math.max(gradCheck(f, x, g.dx), gradCheck(f, w, g.dw), gradCheck(f, b, g.db)));
}
{
  const x = randArr(24, 11, 2, 0.5),
    gn = randArr(6, 12, 0.5, 1),
    bs = randArr(6, 13),
    r = randArr(24, 14);
  const fw = layerNormForward(x, 4, 6, gn, bs);
  const d = layerNormBackward(r, x, 4, 6, gn, fw.mean, fw.rstd);
  const f = () => dotLoss(layerNormForward(x, 4, 6, gn, bs).y, r);
  add('layer norm', Math.max(gradCheck(f, x, d.dx), gradCheck(f, gn, d.dgain), gradCheck(f, bs, d.dbias)));
}
{
  const x = randArr(40, 21, 2),
    r = randArr(40, 22);
  add(
    'gelu',
    gradCheck(() => dotLoss(geluForward(x), r), x, geluBackward(x, r)),
  );
}
{
  const tok = new Int32Array([1, 4, 1, 0, 1, 3]),
    E = randArr(20, 31),
    P = randArr(12, 32),
    r = randArr(24, 33);
  const d = embedBackward(tok, 2, 3, 5, 4, r);
  const f = () => dotLoss(embedForward(tok, 2, 3, E, P, 4), r);
  add('embedding', Math.max(gradCheck(f, E, d.dTok), gradCheck(f, P, d.dPos, [...Array(12).keys()])));
}
for (const mode of ['shift', 'conv3'] as const) {
  const x = randArr(24, 41),
    r = randArr(24, 42),
    w = randArr(mode === 'shift' ? 3 : 9, 43);
  const d = shortConvBackward(x, 2, 4, 3, mode, w, r);
  const f = () => dotLoss(shortConvForward(x, 2, 4, 3, mode, w), r);
  add(`short conv ${mode}`, Math.max(gradCheck(f, x, d.dx), gradCheck(f, w, d.dw)));
}
for (const causal of [false, true]) {
  const n = 60,
    q = randArr(n, 51),
    k = randArr(n, 52),
    v = randArr(n, 53),
    r = randArr(n, 54);
  const fw = softmaxAttentionForward(q, k, v, 2, 5, 2, 3, causal);
  const d = softmaxAttentionBackward(q, k, v, fw.p, r, 2, 5, 2, 3, causal);
  const f = () => dotLoss(softmaxAttentionForward(q, k, v, 2, 5, 2, 3, causal).out, r);
  add(
    `softmax attention ${causal ? 'causal' : 'bidir'}`,
    Math.max(gradCheck(f, q, d.dq), gradCheck(f, k, d.dk), gradCheck(f, v, d.dv)),
  );
}
for (const [causal, win] of [
  [false, 0],
  [true, 0],
  [false, 2],
  [true, 3],
] as const) {
  const pos = (n: number, s: number) => randArr(n, s).map((x) => Math.abs(x) + 0.05);
  const pq = pos(96, 101),
    pk = pos(96, 102),
    v = randArr(72, 103),
    r = randArr(72, 104);
  const fw = linearAttentionForward(pq, pk, v, 2, 6, 2, 4, 3, causal, win);
  const d = linearAttentionBackward(pq, pk, v, fw.den, fw.out, r, 2, 6, 2, 4, 3, causal, win);
  const f = () => dotLoss(linearAttentionForward(pq, pk, v, 2, 6, 2, 4, 3, causal, win).out, r);
  add(
    `linear attention ${causal ? 'causal' : 'bidir'}${win ? ` window ${win}` : ''}`,
    Math.max(gradCheck(f, pq, d.dPhiQ), gradCheck(f, pk, d.dPhiK), gradCheck(f, v, d.dv)),
  );
}
{
  const z = randArr(20, 61, 2),
    t = new Int32Array([1, 0, 4, 2]),
    mask = new Uint8Array([1, 0, 1, 1]);
  const { dLogits } = crossEntropyForward(z, 4, 5, t, mask);
  add(
    'cross-entropy',
    gradCheck(() => crossEntropyForward(z, 4, 5, t, mask).loss, z, dLogits),
  );
}
for (const map of ['elu1', 'relu', 'taylor2', 'cosformer', 'hedgehog'] as TrainFeatureMap[]) {
  const o = { L: 4, B: 2, m: 5, hw: randArr(15, 82), hb: randArr(5, 83, 0.3) };
  const x = randArr(24, 84),
    r = randArr(8 * featureCount(map, 5, 3), 85);
  const phi = featureForward(map, x, 8, 3, 'query', o);
  const g = featureBackward(map, x, 8, 3, 'query', o, phi, r);
  const f = () => dotLoss(featureForward(map, x, 8, 3, 'query', o), r);
  let e = gradCheck(f, x, g.dx);
  if (map === 'hedgehog') e = Math.max(e, gradCheck(f, o.hw, g.dhw!), gradCheck(f, o.hb, g.dhb!));
  add(`feature map ${map}`, e);
}
for (const causal of [false, true]) {
  const w = Float64Array.from(randomProjection('orthogonal-chi', 5, 3, createRng(91)).data);
  const o = { L: 4, B: 2, m: 5, w };
  const q = randArr(24, 92, 0.7),
    k = randArr(24, 93, 0.7),
    v = randArr(24, 94),
    r = randArr(24, 95);
  const fwd = () => {
    const pq = featureForward('positive', q, 8, 3, 'query', o),
      pk = featureForward('positive', k, 8, 3, 'key', o);
    return { pq, pk, ...linearAttentionForward(pq, pk, v, 2, 4, 1, 5, 3, causal, 0) };
  };
  const fw = fwd();
  const d = linearAttentionBackward(fw.pq, fw.pk, v, fw.den, fw.out, r, 2, 4, 1, 5, 3, causal, 0);
  const dq = featureBackward('positive', q, 8, 3, 'query', o, fw.pq, d.dPhiQ).dx;
  const dk = featureBackward('positive', k, 8, 3, 'key', o, fw.pk, d.dPhiK).dx;
  const f = () => dotLoss(fwd().out, r);
  // the detached shift is exact up to δ/den in absolute terms: report max|a − n| / max|a|
  add(
    `FAVOR+ → linear attention ${causal ? 'causal' : 'bidir'} (detached shift; max abs err / max|grad|)`,
    Math.max(gradCheckScaled(f, q, dq), gradCheckScaled(f, k, dk)),
  );
}
console.log('| op | max rel err |\n|---|---|');
for (const [n, e] of rows) console.log(`| ${n} | ${e.toExponential(1)} |`);
