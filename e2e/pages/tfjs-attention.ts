// The TensorFlow.js peers of the bench (e2e/bench.mjs), composed from generic tf ops on
// @tensorflow/tfjs-backend-webgpu, following ARCHITECTURE.md "Math conventions" exactly:
//   tfjs-exact:  out = softmax(QKᵀ/√d) V
//   tfjs-favor:  x = q·d^{-1/4}, y = k·d^{-1/4}, u = xWᵀ (n×m);
//                φ(x)_r = m^{-1/2} exp(u_r − ‖x‖²/2 − max_r' u_r')  (per query row),
//                φ(y)_r = m^{-1/2} exp(u_r − ‖y‖²/2 − M_K), M_K = max over all keys and features,
//                out = φ(Q)(φ(K)ᵀV) / (φ(Q)·Σ_j φ(k_j)), a zero normalizer giving 0 (divNoNan).
// The stabilizer is 'shift' (ε = 0), as in our kernels' bench (src/gpu/kernel-bench.ts).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-webgpu';

export interface TfInputs {
  n: number;
  d: number;
  m: number;
  q: tf.Tensor2D;
  k: tf.Tensor2D;
  v: tf.Tensor2D;
  w: tf.Tensor2D;
}

export interface TfInfo {
  backend: string;
  timestamps: boolean;
  timing: string;
}

interface WebGpuBackendLike {
  supportTimestampQuery?: boolean;
  device?: GPUDevice;
  submitQueue?: () => void;
  adapterInfo?: { vendor?: string; architecture?: string; description?: string };
}

let ready: Promise<TfInfo> | null = null;

/** Selects the WebGPU backend; every op stays on the GPU (no CPU forwarding of small ops). */
export function initTfjs(): Promise<TfInfo> {
  ready ??= (async () => {
    tf.env().set('WEBGPU_CPU_FORWARD', false);
    if (!(await tf.setBackend('webgpu'))) throw new Error('TensorFlow.js: the webgpu backend failed to initialize');
    await tf.ready();
    const b = tf.backend() as unknown as WebGpuBackendLike;
    const timestamps = b.supportTimestampQuery === true;
    return {
      backend: tf.getBackend(),
      timestamps,
      timing: timestamps
        ? 'tf.time() kernelMs: GPU timestamp queries around each tf program, summed'
        : 'wall clock from the first op to queue.onSubmittedWorkDone() (no timestamp queries)',
    };
  })();
  return ready;
}

export function tfInputs(
  n: number,
  d: number,
  m: number,
  q: Float32Array,
  k: Float32Array,
  v: Float32Array,
  w: Float32Array,
): TfInputs {
  return {
    n,
    d,
    m,
    q: tf.tensor2d(q, [n, d]),
    k: tf.tensor2d(k, [n, d]),
    v: tf.tensor2d(v, [n, d]),
    w: tf.tensor2d(w, [m, d]),
  };
}

export function disposeInputs(x: TfInputs): void {
  tf.dispose([x.q, x.k, x.v, x.w]);
}

/** softmax(QKᵀ/√d) V */
export function tfjsExact(x: TfInputs): tf.Tensor2D {
  return tf.tidy(() => {
    const scores = tf.mul(tf.matMul(x.q, x.k, false, true), 1 / Math.sqrt(x.d));
    return tf.matMul(tf.softmax(scores), x.v) as tf.Tensor2D;
  });
}

/** FAVOR+ (positive features, bidirectional) from tf ops: project, exp with the stabilizer, φ(K)ᵀV, φ(Q)(…), normalizer. */
export function tfjsFavor(x: TfInputs): tf.Tensor2D {
  return tf.tidy(() => {
    const c = x.d ** -0.25;
    const xs = tf.mul(x.q, c);
    const ys = tf.mul(x.k, c);
    const ux = tf.matMul(xs, x.w, false, true); // n×m
    const uy = tf.matMul(ys, x.w, false, true);
    const hx = tf.mul(tf.sum(tf.square(xs), 1, true), 0.5); // n×1
    const hy = tf.mul(tf.sum(tf.square(ys), 1, true), 0.5);
    const norm = 1 / Math.sqrt(x.m);
    const phiQ = tf.mul(tf.exp(tf.sub(tf.sub(ux, hx), tf.max(ux, 1, true))), norm);
    const phiK = tf.mul(tf.exp(tf.sub(tf.sub(uy, hy), tf.max(uy))), norm);
    const kv = tf.matMul(phiK, x.v, true, false); // m×d
    const z = tf.sum(phiK, 0, true); // 1×m
    const num = tf.matMul(phiQ, kv); // n×d
    const den = tf.matMul(phiQ, z, false, true); // n×1
    return tf.divNoNan(num, den) as tf.Tensor2D;
  });
}

export type TfMethod = 'tfjs-exact' | 'tfjs-favor';
const OPS: Record<TfMethod, (x: TfInputs) => tf.Tensor2D> = { 'tfjs-exact': tfjsExact, 'tfjs-favor': tfjsFavor };

export async function tfOutput(method: TfMethod, x: TfInputs): Promise<Float32Array> {
  const out = OPS[method](x);
  try {
    return (await out.data()) as Float32Array;
  } finally {
    out.dispose();
  }
}

/**
 * GPU time of one call: tf.time()'s kernelMs (timestamp queries per program) when the device has
 * timestamps, else wall time to onSubmittedWorkDone after flushing tf's deferred command queue.
 */
export async function timeTf(method: TfMethod, x: TfInputs): Promise<{ ms: number; source: 'timestamp' | 'wall' }> {
  const info = await initTfjs();
  if (info.timestamps) {
    let out: tf.Tensor | null = null;
    const t = await tf.time(() => {
      out = OPS[method](x);
    });
    (out as tf.Tensor | null)?.dispose();
    const ms = t.kernelMs;
    if (typeof ms !== 'number') throw new Error(`tf.time gave no kernel time: ${JSON.stringify(ms)}`);
    return { ms, source: 'timestamp' };
  }
  const b = tf.backend() as unknown as WebGpuBackendLike;
  const t0 = performance.now();
  const out = OPS[method](x);
  b.submitQueue?.();
  await b.device?.queue.onSubmittedWorkDone();
  const ms = performance.now() - t0;
  out.dispose();
  return { ms, source: 'wall' };
}

/** Bytes of tf tensors alive at the op's peak beyond those alive before it, plus its inputs. */
export async function tfBytes(method: TfMethod, x: TfInputs): Promise<number> {
  const before = tf.memory().numBytes;
  const p = await tf.profile(() => OPS[method](x));
  const result = p.result as tf.Tensor | tf.Tensor[];
  tf.dispose(result);
  const inputs = 4 * (3 * x.n * x.d + x.m * x.d);
  return Math.max(0, p.peakBytes - before) + inputs;
}
