import { describe, expect, it } from 'vitest';
import { wrapAtSeparators } from './svg';

// one unit of width per character: what a line may hold is plain to read
const chars = (t: string) => t.length;
const CAPTION = 'Performer, up close · n = 96, d = 16, m = 48, φ: positive, s = 1, causal';

describe('wrapAtSeparators', () => {
  it('keeps a caption that fits on one line', () => {
    expect(wrapAtSeparators(CAPTION, 200, chars)).toEqual([CAPTION]);
  });

  it('breaks after separators, each line as full as the width allows, none wider, nothing lost', () => {
    const lines = wrapAtSeparators(CAPTION, 40, chars);
    expect(lines).toEqual(['Performer, up close · n = 96, d = 16,', 'm = 48, φ: positive, s = 1, causal']);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    expect(lines.join(' ')).toBe(CAPTION);
  });

  it('breaks after the Chinese comma too, and leaves a piece wider than the width on a line of its own', () => {
    expect(wrapAtSeparators('细看 Performer · n = 96，d = 16，m = 48', 14, chars)).toEqual([
      '细看 Performer ·',
      'n = 96，d = 16，',
      'm = 48',
    ]);
    expect(wrapAtSeparators('a-very-long-piece, b', 5, chars)).toEqual(['a-very-long-piece,', 'b']);
  });
});
