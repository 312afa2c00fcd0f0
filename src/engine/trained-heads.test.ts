import { describe, expect, it } from 'vitest';
import { bundledHeads } from '../core/trained/bundle-weights';
import { exampleTokens } from '../core/trained/heads';
import { BUNDLES } from '../core/trained/bundles';
import { computeHeads } from './trained-heads';

describe('engine heads request (no WebGPU device: the CPU twin)', () => {
  it('returns every (layer, head) of the model on the tokens, computed by the twin, and says cpu', async () => {
    const tokens = exampleTokens(BUNDLES.grammar.config.task, 3);
    const r = await computeHeads({ model: 'grammar', tokens }, null);
    expect(r.backend).toBe('cpu');
    expect(r.heads).toHaveLength(2);
    expect(r.heads.map((row) => row.length)).toEqual([2, 2]);
    const want = bundledHeads('grammar', 3);
    for (let l = 0; l < 2; l++)
      for (let h = 0; h < 2; h++)
        for (const x of ['q', 'k', 'v'] as const) expect(r.heads[l]![h]![x].data).toEqual(want[l]![h]![x].data);
  });

  it('rejects an unknown model, too many tokens and a token outside the vocabulary', async () => {
    const { vocab, seqLen } = BUNDLES.mqar.config.model;
    await expect(computeHeads({ model: 'gpt2' as never, tokens: new Int32Array(4) }, null)).rejects.toThrow(/gpt2/);
    await expect(computeHeads({ model: 'mqar', tokens: new Int32Array(seqLen + 1) }, null)).rejects.toThrow(/takes 1/);
    await expect(computeHeads({ model: 'mqar', tokens: Int32Array.of(0, vocab) }, null)).rejects.toThrow(/vocabulary/);
  });
});
