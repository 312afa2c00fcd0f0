// In-page driver for e2e/train-dense-kernels.spec.mjs: runs each dense training kernel
// (src/gpu/train/*.ts) on SwiftShader next to its CPU twin (src/core/train/*.ts, computed in f64 on
// the same f32 inputs) and returns, per output, max |gpu − twin| and whether every entry is within
// ATOL·√k + RTOL·|twin| (k: the length of the sums behind an entry).
import { adamwStep } from '../../src/core/train/adamw';
import { crossEntropyForward } from '../../src/core/train/cross-entropy';
import { embedBackward, embedForward } from '../../src/core/train/embedding';
import { geluBackward, geluForward } from '../../src/core/train/gelu';
import { layerNormBackward, layerNormForward } from '../../src/core/train/layer-norm';
import { linearBackward, linearForward } from '../../src/core/train/linear';
import { shortConvBackward, shortConvForward } from '../../src/core/train/short-conv';
import type { OptimizerConfig } from '../../src/core/train/types';
import { createRng } from '../../src/core/rng';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { readFloats } from '../../src/gpu/readback';
import { encodeAdamw, encodeGradNorm, gradNormScratch } from '../../src/gpu/train/adamw';
import { encodeCrossEntropy } from '../../src/gpu/train/cross-entropy';
import { encodeGeluBackward, encodeGeluForward } from '../../src/gpu/train/elementwise';
import { encodeEmbedBackward, encodeEmbedForward, tokenIndex } from '../../src/gpu/train/embedding';
import { encodeLayerNormBackward, encodeLayerNormForward } from '../../src/gpu/train/layer-norm';
import { encodeLinearBackward, encodeLinearForward, encodeMatmulSum3, encodeMatmulT } from '../../src/gpu/train/linear';
import { encodeShortConvBackward, encodeShortConvForward } from '../../src/gpu/train/short-conv';
import { pageKernelContext } from './train-gpu';

const ATOL = 2e-5;
const RTOL = 1e-4;

const ctx = pageKernelContext;

type Row = { out: string; n: number; maxAbs: number; maxRel: number; ok: boolean };

function compare(out: string, got: Float32Array, want: ArrayLike<number>, k: number): Row {
  let maxAbs = 0;
  let maxRef = 0;
  let ok = got.length >= want.length;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i]! - want[i]!);
    if (!(e <= ATOL * Math.sqrt(Math.max(1, k)) + RTOL * Math.abs(want[i]!))) ok = false;
    if (!(e <= maxAbs)) maxAbs = e;
    maxRef = Math.max(maxRef, Math.abs(want[i]!));
  }
  return { out, n: want.length, maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok };
}

const f64 = (x: Float32Array) => Float64Array.from(x);

/** Uploads inputs, lets `enc` encode the kernel, submits once, reads `outs` back. */
async function gpuRun(
  inputs: Record<string, ArrayBufferView>,
  outs: Record<string, number>,
  enc: (c: KernelContext, e: GPUCommandEncoder, b: Record<string, GPUBuffer>) => void,
): Promise<Record<string, Float32Array>> {
  const c = await ctx();
  const b: Record<string, GPUBuffer> = {};
  for (const [k, v] of Object.entries(inputs)) b[k] = c.alloc.upload(`t.in.${k}`, v);
  for (const [k, n] of Object.entries(outs)) {
    if (!b[k]) b[k] = c.alloc.upload(`t.out.${k}`, new Float32Array(n));
  }
  const e = c.device.createCommandEncoder();
  enc(c, e, b);
  c.device.queue.submit([e.finish()]);
  const res: Record<string, Float32Array> = {};
  for (const [k, n] of Object.entries(outs)) res[k] = await readFloats(c.device, b[k]!, n);
  return res;
}

function normal(n: number, seed: number, std = 1): Float32Array {
  return createRng(seed).fillNormal(new Float32Array(n), std);
}
function ints(n: number, hi: number, seed: number): Int32Array {
  const r = createRng(seed);
  return Int32Array.from({ length: n }, () => Math.floor(r.uniform() * hi));
}

async function linear(s: {
  rows: number;
  inDim: number;
  outDim: number;
  bias: boolean;
  residual?: boolean;
}): Promise<Row[]> {
  const { rows, inDim, outDim } = s;
  const x = normal(rows * inDim, 1);
  const w = normal(inDim * outDim, 2);
  const b = normal(outDim, 3);
  const dy = normal(rows * outDim, 4);
  const dx0 = normal(rows * inDim, 5); // accumulated onto
  const res = normal(rows * outDim, 6); // y = r + x·W + b when s.residual
  const y = linearForward(f64(x), rows, inDim, f64(w), s.bias ? f64(b) : null, outDim);
  if (s.residual) for (let i = 0; i < y.length; i++) y[i]! += res[i]!;
  const g = linearBackward(f64(x), rows, inDim, f64(w), outDim, f64(dy));
  const r = await gpuRun(
    { x, w, b, dy, dx: dx0, res },
    { y: rows * outDim, dx: rows * inDim, dw: inDim * outDim, db: outDim },
    (c, e, B) => {
      encodeLinearForward(c, e, {
        x: B.x!,
        w: B.w!,
        b: s.bias ? B.b! : null,
        residual: s.residual ? B.res! : null,
        y: B.y!,
        rows,
        inDim,
        outDim,
      });
      encodeLinearBackward(c, e, {
        x: B.x!,
        w: B.w!,
        dy: B.dy!,
        rows,
        inDim,
        outDim,
        dx: B.dx!,
        accumulateDx: true,
        dw: B.dw!,
        db: B.db!,
        accumulateParams: false,
      });
    },
  );
  const dxWant = g.dx.map((v, i) => v + dx0[i]!);
  return [
    compare('y', r.y!, y, inDim),
    compare('dx (+=)', r.dx!, dxWant, outDim),
    compare('dW', r.dw!, g.dw, rows),
    compare('db', r.db!, g.db, rows),
  ];
}

/** op(A)·op(B) (+ C) with either kernel, against an f64 triple loop. */
async function matmulT(s: {
  m: number;
  n: number;
  k: number;
  transA: boolean;
  transB: boolean;
  kernel: 'tiled' | 'small';
}): Promise<Row[]> {
  const { m, n, k } = s;
  const a = normal(m * k, 71);
  const b = normal(k * n, 72);
  const c0 = normal(m * n, 73);
  const want = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let acc = c0[i * n + j]!;
      for (let q = 0; q < k; q++) acc += a[s.transA ? q * m + i : i * k + q]! * b[s.transB ? j * k + q : q * n + j]!;
      want[i * n + j] = acc;
    }
  const r = await gpuRun({ a, b, c: c0 }, { c: m * n }, (c, e, B) =>
    encodeMatmulT(c, e, {
      a: B.a!,
      b: B.b!,
      c: B.c!,
      m,
      n,
      k,
      transA: s.transA,
      transB: s.transB,
      accumulate: true,
      kernel: s.kernel,
    }),
  );
  return [compare('C (+=)', r.c!, want, k)];
}

/**
 * The fused input gradient of three projections, C += Σ_t A_t·W_tᵀ (encodeMatmulSum3), against
 * the sum of the three twins' dx (linearBackward); the weights at a stride with a gap (pad).
 */
async function sum3(s: { m: number; n: number; k: number; pad: number }): Promise<Row[]> {
  const { m, n, k } = s;
  const bs = n * k + s.pad;
  const as = [0, 1, 2].map((t) => normal(m * k, 81 + t));
  const b = normal(2 * bs + n * k, 84);
  const c0 = normal(m * n, 85);
  const want = Float64Array.from(c0);
  for (let t = 0; t < 3; t++) {
    const w = f64(b.subarray(t * bs, t * bs + n * k));
    const { dx } = linearBackward(new Float64Array(m * n), m, n, w, k, f64(as[t]!));
    for (let i = 0; i < want.length; i++) want[i]! += dx[i]!;
  }
  const r = await gpuRun({ a0: as[0]!, a1: as[1]!, a2: as[2]!, b, c: c0 }, { c: m * n }, (c, e, B) =>
    encodeMatmulSum3(c, e, { a: [B.a0!, B.a1!, B.a2!], b: B.b!, bs, c: B.c!, m, n, k, accumulate: true }),
  );
  return [compare('C (+=)', r.c!, want, 3 * k)];
}

async function layerNorm(s: { rows: number; cols: number }): Promise<Row[]> {
  const { rows, cols } = s;
  const x = normal(rows * cols, 11, 2);
  for (let i = 0; i < x.length; i++) x[i]! += 0.5; // a non-zero mean
  const gain = normal(cols, 12);
  const bias = normal(cols, 13);
  const dy = normal(rows * cols, 14);
  const f = layerNormForward(f64(x), rows, cols, f64(gain), f64(bias));
  const g = layerNormBackward(f64(dy), f64(x), rows, cols, f64(gain), f.mean, f.rstd);
  const r = await gpuRun(
    { x, gain, bias, dy },
    { y: rows * cols, mean: rows, rstd: rows, dx: rows * cols, dg: cols, db: cols },
    (c, e, B) => {
      encodeLayerNormForward(c, e, {
        x: B.x!,
        gain: B.gain!,
        bias: B.bias!,
        y: B.y!,
        mean: B.mean!,
        rstd: B.rstd!,
        rows,
        cols,
      });
      encodeLayerNormBackward(c, e, {
        dy: B.dy!,
        x: B.x!,
        gain: B.gain!,
        mean: B.mean!,
        rstd: B.rstd!,
        rows,
        cols,
        dx: B.dx!,
        accumulateDx: false,
        dgain: B.dg!,
        dbias: B.db!,
        accumulateParams: false,
      });
    },
  );
  return [
    compare('y', r.y!, f.y, cols),
    compare('rstd', r.rstd!, f.rstd, cols),
    compare('dx', r.dx!, g.dx, cols),
    compare('dgain', r.dg!, g.dgain, rows),
    compare('dbias', r.db!, g.dbias, rows),
  ];
}

async function gelu(s: { n: number }): Promise<Row[]> {
  const x = normal(s.n, 21, 4);
  if (s.n > 2) {
    x[0] = 30;
    x[1] = -30; // saturated tails: tanh must not overflow
  }
  const dy = normal(s.n, 22);
  const r = await gpuRun({ x, dy }, { y: s.n, dx: s.n }, (c, e, B) => {
    encodeGeluForward(c, e, { x: B.x!, y: B.y!, n: s.n });
    encodeGeluBackward(c, e, { x: B.x!, dy: B.dy!, dx: B.dx!, n: s.n });
  });
  return [compare('y', r.y!, geluForward(f64(x)), 1), compare('dx', r.dx!, geluBackward(f64(x), f64(dy)), 1)];
}

async function embed(s: { B: number; L: number; V: number; D: number; Lmax: number }): Promise<Row[]> {
  const { B, L, V, D } = s;
  const tokens = ints(B * L, V, 31);
  const tok = normal(V * D, 32);
  const pos = normal(s.Lmax * D, 33);
  const dh = normal(B * L * D, 34);
  const h = embedForward(tokens, B, L, f64(tok), f64(pos), D);
  const g = embedBackward(tokens, B, L, V, D, f64(dh));
  const byToken = tokenIndex(tokens);
  const io = { tokens, tok, pos, dh, byToken };
  const r = await gpuRun(io, { h: B * L * D, dTok: V * D, dPos: L * D }, (c, e, Bf) => {
    const sh = { tokens: Bf.tokens!, batch: B, seqLen: L, dim: D, vocab: V };
    encodeEmbedForward(c, e, { ...sh, tok: Bf.tok!, pos: Bf.pos!, h: Bf.h! });
    const bwd = { dh: Bf.dh!, dTok: Bf.dTok!, dPos: Bf.dPos!, byToken: Bf.byToken!, accumulate: false };
    encodeEmbedBackward(c, e, { ...sh, ...bwd });
  });
  return [compare('h', r.h!, h, 1), compare('dTok', r.dTok!, g.dTok, B * L), compare('dPos', r.dPos!, g.dPos, B)];
}

async function shortConv(s: { B: number; L: number; D: number; mode: 'shift' | 'conv3' }): Promise<Row[]> {
  const { B, L, D, mode } = s;
  const nw = mode === 'shift' ? D : 3 * D;
  const x = normal(B * L * D, 41);
  const w = normal(nw, 42);
  const dy = normal(B * L * D, 43);
  const y = shortConvForward(f64(x), B, L, D, mode, f64(w));
  const g = shortConvBackward(f64(x), B, L, D, mode, f64(w), f64(dy));
  const r = await gpuRun({ x, w, dy }, { y: B * L * D, dx: B * L * D, dw: nw }, (c, e, Bf) => {
    const sh = { batch: B, seqLen: L, dim: D, mode };
    encodeShortConvForward(c, e, { ...sh, x: Bf.x!, w: Bf.w!, y: Bf.y! });
    encodeShortConvBackward(c, e, {
      ...sh,
      x: Bf.x!,
      w: Bf.w!,
      dy: Bf.dy!,
      dx: Bf.dx!,
      accumulateDx: false,
      dw: Bf.dw!,
      accumulateParams: false,
    });
  });
  return [compare('u', r.y!, y, 3), compare('dx', r.dx!, g.dx, 3), compare('dw', r.dw!, g.dw, B * L)];
}

async function crossEntropy(s: { rows: number; V: number; maskRate: number; ties?: boolean }): Promise<Row[]> {
  const { rows, V } = s;
  const z = normal(rows * V, 51, 3);
  if (s.ties) for (let i = 0; i < z.length; i++) z[i] = Math.round(z[i]!); // argmax ties → the lowest index
  const targets = ints(rows, V, 52);
  const rng = createRng(53);
  const mask = Uint8Array.from({ length: rows }, () => (rng.uniform() < s.maskRate ? 1 : 0));
  const want = crossEntropyForward(f64(z), rows, V, targets, mask);
  const r = await gpuRun(
    { z, targets, mask: Uint32Array.from(mask) },
    { dz: rows * V, row: 2 * rows, stats: 8 },
    (c, e, B) =>
      encodeCrossEntropy(c, e, {
        logits: B.z!,
        targets: B.targets!,
        mask: B.mask!,
        rows,
        vocab: V,
        dLogits: B.dz!,
        rowStats: B.row!,
        stats: B.stats!,
      }),
  );
  const st = r.stats!;
  return [
    compare('dLogits', r.dz!, want.dLogits, 1),
    compare('loss', st.subarray(0, 1), [want.loss], V),
    compare('correct, count', st.subarray(1, 3), [want.correct, want.count], 0),
  ];
}

async function adamw(s: { n: number; t: number; clip: number; decayEvery: number }): Promise<Row[]> {
  const { n } = s;
  const opt: OptimizerConfig = {
    lr: 3e-3,
    beta1: 0.9,
    beta2: 0.98,
    eps: 1e-8,
    weightDecay: 0.1,
    warmup: 0,
    clip: s.clip,
  };
  const p = normal(n, 61);
  const g = normal(n, 62, 0.5);
  const m = normal(n, 63, 0.01);
  const v = normal(n, 64, 0.01).map((x) => x * x);
  const decay = Float32Array.from({ length: n }, (_, i) => (i % s.decayEvery === 0 ? 1 : 0));
  let sq = 0;
  for (const x of g) sq += x * x;
  const norm = Math.sqrt(sq);
  const scale = s.clip > 0 && norm > s.clip ? s.clip / norm : 1;
  const gs = g.map((x) => Math.fround(x * Math.fround(scale)));
  const [pw, mw, vw] = [p.slice(), m.slice(), v.slice()];
  // the twin updates one tensor at a time: the decayed and the undecayed entries as two "tensors"
  for (const dec of [true, false]) {
    const idx = [...decay.keys()].filter((i) => (decay[i] === 1) === dec);
    const sel = (a: Float32Array) => Float32Array.from(idx, (i) => a[i]!);
    const [pp, mm, vv] = [sel(pw), sel(mw), sel(vw)];
    adamwStep(pp, sel(gs), mm, vv, s.t, opt.lr, opt, dec);
    idx.forEach((i, j) => ((pw[i] = pp[j]!), (mw[i] = mm[j]!), (vw[i] = vv[j]!)));
  }
  const parts = gradNormScratch(n);
  const out = await gpuRun({ p, g, m, v, decay }, { p: n, m: n, v: n, stats: 8, part: parts }, (c, e, B) => {
    encodeGradNorm(c, e, { grads: B.g!, n, partial: B.part!, stats: B.stats!, clip: s.clip });
    encodeAdamw(c, e, {
      params: B.p!,
      grads: B.g!,
      m: B.m!,
      v: B.v!,
      decay: B.decay!,
      stats: B.stats!,
      partial: B.part!,
      n,
      t: s.t,
      lr: opt.lr,
      opt,
    });
  });
  return [
    compare('‖g‖', out.stats!.subarray(3, 4), [norm], n),
    compare('p', out.p!, pw, 1),
    compare('m', out.m!, mw, 1),
    compare('v', out.v!, vw, 1),
  ];
}

const KERNELS = { matmulT, sum3, linear, layerNorm, gelu, embed, shortConv, crossEntropy, adamw } as const;

(window as unknown as { trainDense: unknown }).trainDense = {
  info: async () => ({ adapter: (await ctx()).adapter }),
  run: (kind: keyof typeof KERNELS, shape: never) => KERNELS[kind](shape),
};
