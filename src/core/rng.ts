/**
 * Seeded pseudo-random numbers. Every random quantity in the explainer (Q, K, V, the projection W)
 * comes from here, so one seed reproduces one experiment bit-for-bit on every platform: the
 * generator only uses 32-bit integer arithmetic (`Math.imul`, `>>>`), which JavaScript defines
 * exactly, and `Math.log` / `Math.cos` / `Math.sqrt` for the Gaussian transform.
 *
 * Generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state, passes
 * PractRand), its state filled by splitmix32 so that nearby seeds (0, 1, 2, …) give unrelated
 * streams.
 */

export interface Rng {
  /** uniform in [0, 1), 32 bits of resolution */
  uniform(): number;
  /** standard normal N(0, 1) (Box–Muller; the second value of each pair is cached) */
  normal(): number;
  /** fills `out` with iid N(0, std²) values, in index order */
  fillNormal(out: Float32Array, std?: number): Float32Array;
  /** raw 32-bit unsigned output (for seeding sub-generators) */
  nextUint32(): number;
}

const TWO_POW_32 = 4294967296;

/** One splitmix32 step: advances `state` by the golden-ratio increment and mixes it. */
function splitmix32(state: number): { state: number; value: number } {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  z = z ^ (z >>> 15);
  return { state: next, value: z >>> 0 };
}

/**
 * Normalizes any JS number to a 32-bit seed. Integers in [0, 2^32) map to themselves; other
 * numbers (negative, fractional, large) are folded deterministically so that no input is rejected.
 */
function seedToUint32(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  if (Number.isInteger(seed) && seed >= 0 && seed < TWO_POW_32) return seed >>> 0;
  // Fold the high part and fractional part into the low 32 bits.
  const hi = Math.floor(seed / TWO_POW_32);
  const lo = seed - hi * TWO_POW_32;
  const frac = Math.floor((lo - Math.floor(lo)) * TWO_POW_32);
  return (Math.floor(lo) ^ Math.imul(hi | 0, 0x85ebca6b) ^ frac) >>> 0;
}

export function createRng(seed: number): Rng {
  let sm = seedToUint32(seed);
  const s = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    const r = splitmix32(sm);
    sm = r.state;
    s[i] = r.value;
  }
  let a = s[0]! | 0;
  let b = s[1]! | 0;
  let c = s[2]! | 0;
  let d = s[3]! | 0;

  function nextUint32(): number {
    // sfc32
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  }
  // Discard a few outputs so the counter-based state is well mixed (as sfc32's author recommends).
  for (let i = 0; i < 12; i++) nextUint32();

  function uniform(): number {
    return nextUint32() / TWO_POW_32;
  }

  let cached = 0;
  let hasCached = false;
  function normal(): number {
    if (hasCached) {
      hasCached = false;
      return cached;
    }
    // u1 ∈ (0, 1] so log(u1) is finite; u2 ∈ [0, 1).
    const u1 = 1 - uniform();
    const u2 = uniform();
    const r = Math.sqrt(-2 * Math.log(u1));
    const theta = 2 * Math.PI * u2;
    cached = r * Math.sin(theta);
    hasCached = true;
    return r * Math.cos(theta);
  }

  function fillNormal(out: Float32Array, std = 1): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = normal() * std;
    return out;
  }

  return { uniform, normal, fillNormal, nextUint32 };
}

/**
 * Seed of an independent substream named `stream` of `seed` (e.g. deriveSeed(seed, 'q')), so that
 * Q, K and V come from unrelated generators and adding a new stream never shifts existing ones.
 * FNV-1a hash of the name, combined with the seed, then mixed by splitmix32.
 */
export function deriveSeed(seed: number, stream: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < stream.length; i++) {
    h ^= stream.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  const mixed = splitmix32((seedToUint32(seed) ^ Math.imul(h, 0x9e3779b1)) | 0);
  return splitmix32((mixed.value ^ h) | 0).value;
}
