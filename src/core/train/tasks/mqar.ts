/**
 * Multi-query associative recall (MQAR; Arora et al. 2023, "Zoology", §3), the task on which
 * softmax attention and linear attention part ways at small width.
 * One sequence of length L with K key–value pairs:
 *   positions 0 … 2K−1: k₁ v₁ k₂ v₂ … k_K v_K      (keys distinct, each value drawn independently)
 *   positions 2K … L−1: 0 (blank) except K query positions, which hold the keys again in a random
 *                       order; the target at a query position is that key's value.
 * Vocabulary (as Zoology's basic generator): token 0 is the blank, keys come from [1, V/2), values
 * from [V/2, V). Loss and accuracy count the K query positions only (mask = 1 there).
 * One deviation from Zoology's generator, on purpose: Zoology trains next-token prediction on the
 * stream "… k v …", so the value follows its query key in the input; here the slot after a query is
 * blank and the value is the *target at the key's position*. The prediction is the same, but the
 * input never contains the answer, so the task is also valid for bidirectional models (MLM-style
 * attention would otherwise read the value from the next position). Blanks instead of random filler
 * tokens (Zoology's random_non_queries) keep the small-vocabulary task learnable in a few hundred
 * steps. Deterministic: row b of batch `index` comes from its own stream (seed, index, b).
 */
import { createRng, deriveSeed } from '../../rng';
import type { Batch, TaskConfig } from '../types';

/**
 * The accuracy of guessing a random value token at every query (values are uniform over the
 * V − ⌊V/2⌋ value tokens): the floor a model that has learned only "the answer is a value" sits on.
 */
export function mqarChance(vocab: number): number {
  return 1 / (vocab - Math.floor(vocab / 2));
}

export function validateMqar(task: TaskConfig): void {
  const K = task.pairs;
  const V = task.vocab;
  if (!Number.isInteger(K) || K < 1) throw new RangeError(`mqar: pairs must be ≥ 1 (got ${K})`);
  if (Math.floor(V / 2) - 1 < K) throw new RangeError(`mqar: ${K} distinct keys need vocab ≥ ${2 * (K + 1)}`);
  if (task.seqLen < 3 * K) throw new RangeError(`mqar: seqLen ${task.seqLen} < 3·pairs = ${3 * K}`);
}

export function mqarBatch(task: TaskConfig, batch: number, seed: number, index: number): Batch {
  validateMqar(task);
  const L = task.seqLen;
  const K = task.pairs;
  const half = Math.floor(task.vocab / 2);
  const tokens = new Int32Array(batch * L);
  const targets = new Int32Array(batch * L);
  const mask = new Uint8Array(batch * L);
  const keyPool = new Int32Array(half - 1);
  const slots = new Int32Array(L - 2 * K);
  for (let b = 0; b < batch; b++) {
    const rng = createRng(deriveSeed(seed, `mqar/${index}/${b}`));
    const pick = (n: number) => Math.floor(rng.uniform() * n);
    // K distinct keys: a partial Fisher–Yates shuffle of 1 … half−1
    for (let i = 0; i < keyPool.length; i++) keyPool[i] = i + 1;
    for (let i = 0; i < K; i++) {
      const j = i + pick(keyPool.length - i);
      [keyPool[i], keyPool[j]] = [keyPool[j], keyPool[i]];
    }
    const o = b * L;
    const values: number[] = [];
    for (let i = 0; i < K; i++) {
      const v = half + pick(task.vocab - half);
      values.push(v);
      tokens[o + 2 * i] = keyPool[i];
      tokens[o + 2 * i + 1] = v;
    }
    // K query slots among the L − 2K positions after the context, in random order
    for (let i = 0; i < slots.length; i++) slots[i] = 2 * K + i;
    for (let i = 0; i < K; i++) {
      const j = i + pick(slots.length - i);
      [slots[i], slots[j]] = [slots[j], slots[i]];
    }
    for (let i = 0; i < K; i++) {
      const p = o + slots[i];
      tokens[p] = keyPool[i];
      targets[p] = values[i];
      mask[p] = 1;
    }
  }
  return { batch, seqLen: L, tokens, targets, mask };
}
