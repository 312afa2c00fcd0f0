import { describe, expect, it } from 'vitest';
import { tokenIndex } from './embedding';

describe('tokenIndex (the rows of a batch grouped by token, for the token-gradient gather)', () => {
  it('lists each token’s rows in ascending order after [Vi, start_0 … start_Vi], skipping negative tokens', () => {
    const idx = tokenIndex(Int32Array.from([2, -1, 0, 2, 5, 0]));
    // Vi = 6; starts: token 0 → 0, 1 → 2, 2 → 2, 3 → 4, 4 → 4, 5 → 4, end 5
    expect(Array.from(idx)).toEqual([6, 0, 2, 2, 4, 4, 4, 5, 2, 5, 0, 3, 4]);
  });
  it('gives an empty index for a batch without tokens', () => {
    expect(Array.from(tokenIndex(new Int32Array(0)))).toEqual([0, 0]);
  });
});
