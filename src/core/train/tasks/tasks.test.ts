import { describe, expect, it } from 'vitest';
import { createRng } from '../../rng';
import type { TaskConfig } from '../types';
import { makeBatch, MASK_TOKEN, mqarChance, TEXT_VOCAB } from './index';
import { grammarTokens } from './text';

const mqar: TaskConfig = { kind: 'mqar', pairs: 4, seqLen: 20, vocab: 32, maskRate: 0 };

describe('MQAR', () => {
  it('every query position holds a key of the context and targets that key’s value', () => {
    const b = makeBatch(mqar, 3, 7, 2);
    for (let r = 0; r < 3; r++) {
      const o = r * 20;
      const kv = new Map<number, number>();
      for (let i = 0; i < 4; i++) {
        const k = b.tokens[o + 2 * i];
        const v = b.tokens[o + 2 * i + 1];
        expect(k).toBeGreaterThanOrEqual(1);
        expect(k).toBeLessThan(16);
        expect(v).toBeGreaterThanOrEqual(16);
        expect(v).toBeLessThan(32);
        kv.set(k, v);
      }
      expect(kv.size).toBe(4); // distinct keys
      let queries = 0;
      for (let t = 8; t < 20; t++) {
        if (b.mask[o + t]) {
          queries++;
          expect(b.targets[o + t]).toBe(kv.get(b.tokens[o + t]));
        } else expect(b.tokens[o + t]).toBe(0);
      }
      expect(queries).toBe(4);
      for (let t = 0; t < 8; t++) expect(b.mask[o + t]).toBe(0);
    }
  });

  it('is deterministic per (seed, index) and differs across indices', () => {
    expect(makeBatch(mqar, 2, 7, 5).tokens).toEqual(makeBatch(mqar, 2, 7, 5).tokens);
    expect(makeBatch(mqar, 2, 7, 5).tokens).not.toEqual(makeBatch(mqar, 2, 7, 6).tokens);
  });

  it('rejects too many pairs for the vocabulary or the length', () => {
    expect(() => makeBatch({ ...mqar, pairs: 16 }, 1, 0, 0)).toThrow(RangeError);
    expect(() => makeBatch({ ...mqar, pairs: 7 }, 1, 0, 0)).toThrow(RangeError);
  });
});

describe('grammar text', () => {
  it('brackets match and nest, and every token is in the vocabulary', () => {
    const toks = grammarTokens(createRng(3), 2000);
    const stack: number[] = [];
    let depth = 0;
    for (const t of toks) {
      expect(t).toBeGreaterThanOrEqual(2);
      expect(t).toBeLessThan(TEXT_VOCAB);
      if (t === 3 || t === 5 || t === 7) stack.push(t);
      if (t === 4 || t === 6 || t === 8) expect(stack.pop()).toBe(t - 1);
      depth = Math.max(depth, stack.length);
    }
    expect(depth).toBeGreaterThanOrEqual(2);
  });

  it('the stream is pinned: 2000 tokens from seed 3 hash to the value the bundled weights were trained on', () => {
    // FNV-1a over the ids; the committed grammar model (src/core/trained) learned from this generator
    const toks = grammarTokens(createRng(3), 2000);
    let h = 0x811c9dc5;
    for (const t of toks) h = Math.imul(h ^ t, 0x01000193) >>> 0;
    expect(h.toString(16)).toBe('8f0c53e8');
    expect(toks.slice(0, 12)).toEqual([10, 17, 15, 22, 37, 2, 10, 17, 16, 22, 7, 9]);
  });

  it('lm targets are the next token on every position; mlm masks ≈ maskRate with [MASK] inputs', () => {
    const lm = makeBatch({ kind: 'lm', pairs: 0, seqLen: 32, vocab: TEXT_VOCAB, maskRate: 0 }, 2, 1, 0);
    for (let t = 0; t < 31; t++) expect(lm.targets[t]).toBe(lm.tokens[t + 1]);
    expect(lm.mask.every((m) => m === 1)).toBe(true);
    const mlm = makeBatch({ kind: 'mlm', pairs: 0, seqLen: 64, vocab: TEXT_VOCAB, maskRate: 0.15 }, 16, 1, 0);
    let n = 0;
    for (let i = 0; i < mlm.mask.length; i++) {
      if (mlm.mask[i]) {
        n++;
        expect(mlm.tokens[i]).toBe(MASK_TOKEN);
      } else expect(mlm.tokens[i]).toBe(mlm.targets[i]);
    }
    expect(n / mlm.mask.length).toBeGreaterThan(0.1);
    expect(n / mlm.mask.length).toBeLessThan(0.2);
  });
});

describe('mqarChance', () => {
  it('is the accuracy of guessing a uniform value token: 1/32 at V = 64, and what such guesses score on MQAR batches', () => {
    expect(mqarChance(64)).toBe(1 / 32);
    expect(mqarChance(33)).toBe(1 / 17); // values are [⌊V/2⌋, V)
    const task: TaskConfig = { kind: 'mqar', pairs: 8, seqLen: 32, vocab: 64, maskRate: 0 };
    const rng = createRng(11);
    let hits = 0;
    let queries = 0;
    for (let index = 0; index < 40; index++) {
      const b = makeBatch(task, 16, 3, index);
      for (let p = 0; p < b.tokens.length; p++) {
        if (!b.mask[p]) continue;
        expect(b.targets[p]).toBeGreaterThanOrEqual(32); // every target is a value token
        queries++;
        if (32 + Math.floor(rng.uniform() * 32) === b.targets[p]) hits++;
      }
    }
    // 5,120 guesses: the rate within 4 standard deviations (0.0098) of 1/32
    expect(Math.abs(hits / queries - mqarChance(64))).toBeLessThan(0.0098);
  });
});
