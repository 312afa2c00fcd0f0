/**
 * The committed form of a bundled trained model: its training config, the run's log, and the
 * parameters as IEEE half floats (f16, round to nearest even) in one little-endian byte string,
 * base64, tensors back to back in initParams order. f16 keeps ~3 significant digits; the largest
 * weight of the bundled models is far below f16's 65504, so nothing saturates (encode throws if it would).
 * The log keeps every step's training loss (5 digits) and the first steps' loss as exact f32 bit
 * patterns (hex), which the reproduction test compares bit for bit.
 */
import type { ParamTensor, TrainConfig } from '../train/types';

export interface BundleLog {
  /** training loss per step (5 significant digits) */
  loss: number[];
  /** the first steps' training loss, f32 bits as 8 hex digits */
  lossBits: string[];
  /** held-out evaluations */
  evals: { step: number; loss: number; accuracy: number }[];
}

export interface BundleTensor {
  name: string;
  shape: number[];
  decay: boolean;
}

export interface TrainedBundle {
  id: string;
  config: TrainConfig;
  trainSeconds: number;
  parameters: number;
  /** bytes of the f16 weights (before base64) */
  bytes: number;
  evalLoss: number;
  evalAccuracy: number;
  tensors: BundleTensor[];
  log: BundleLog;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The f32 bit pattern of x (rounded to f32 first) as 8 hex digits. */
export function f32Bits(x: number): string {
  f32[0] = x;
  return u32[0].toString(16).padStart(8, '0');
}

/** f32 → f16 bits, round to nearest even; throws on overflow (|x| > 65504) and NaN. */
export function toHalf(x: number): number {
  f32[0] = x;
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff || Math.abs(f32[0]) > 65504) throw new RangeError(`f16: ${x} does not fit`);
  const e = exp - 127 + 15;
  if (e >= 31) throw new RangeError(`f16: ${x} does not fit`);
  if (e <= 0) {
    // subnormal half (or zero): shift the implicit-1 mantissa right
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rem > halfway || (rem === halfway && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++; // a carry into the exponent is still correct
  if ((h & 0x7fff) >= 0x7c00) throw new RangeError(`f16: ${x} does not fit`);
  return sign | h;
}

/** f16 bits → number. */
export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function encodeParams(params: readonly ParamTensor[]): { tensors: BundleTensor[]; data: string; bytes: number } {
  const total = params.reduce((a, p) => a + p.data.length, 0);
  const bytes = new Uint8Array(total * 2);
  const view = new DataView(bytes.buffer);
  let o = 0;
  for (const p of params) for (const x of p.data) view.setUint16(2 * o++, toHalf(x), true);
  return {
    tensors: params.map((p) => ({ name: p.name, shape: [...p.shape], decay: p.decay })),
    data: toBase64(bytes),
    bytes: bytes.length,
  };
}

/**
 * The bundle's parameters as f32 tensors (each entry the f16 value, exactly representable in f32):
 * its `tensors` and `data`, the base64 of the f16 weights (a generated module exports them as
 * WEIGHTS, beside its BUNDLE).
 */
export function decodeParams(bundle: { tensors: readonly BundleTensor[]; data: string }): ParamTensor[] {
  const bytes = fromBase64(bundle.data);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  const out = bundle.tensors.map((t) => {
    const n = t.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = fromHalf(view.getUint16(2 * o++, true));
    return { name: t.name, shape: t.shape, decay: t.decay, data };
  });
  if (2 * o !== bytes.length) throw new RangeError(`bundle: ${bytes.length} bytes for ${o} weights`);
  return out;
}
