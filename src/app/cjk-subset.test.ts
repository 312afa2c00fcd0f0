/**
 * The bundled CJK faces cover the interface: every CJK character in the source's strings is in a
 * subset's unicode-range (those used outside the Chinese string modules in the small 'common' one that
 * every page loads), and each recorded range describes the file beside it (its SHA-256). Adding Chinese
 * text with a new character fails here until scripts/subset-cjk-font.py is run again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CJK_SUBSETS } from './cjk-subset';

const SRC = join(__dirname, '..');
// the rule of scripts/subset-cjk-font.py: CJK radicals … unified ideographs, compatibility ideographs,
// vertical and small forms, full-width forms
const CJK = /[\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/gu;
const ZH_MODULE = /(^|[-/])zh\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [p] : [];
  });
}

/** The code points of a unicode-range made of single code points (U+XXXX,…). */
const pointsOf = (range: string) =>
  new Set(range.split(',').map((u) => String.fromCodePoint(parseInt(u.slice(2), 16))));

function used(): { common: Set<string>; zh: Set<string> } {
  const common = new Set<string>();
  const zh = new Set<string>();
  for (const file of sources(SRC)) {
    const rel = relative(SRC, file).split(sep).join('/');
    if (rel === 'app/cjk-subset.ts') continue;
    for (const ch of readFileSync(file, 'utf8').match(CJK) ?? []) (ZH_MODULE.test(rel) ? zh : common).add(ch);
  }
  return { common, zh };
}

describe('the bundled CJK subsets', () => {
  const { common, zh } = used();
  const inCommon = pointsOf(CJK_SUBSETS.common.unicodeRange);
  const inZh = pointsOf(CJK_SUBSETS.zh.unicodeRange);
  const rerun = 'run scripts/subset-cjk-font.py (see its header) and commit its output';

  it('hold every CJK character of the Chinese strings', () => {
    expect(zh.size).toBeGreaterThan(500);
    const missing = [...zh].filter((c) => !inCommon.has(c) && !inZh.has(c));
    expect(missing.join(''), `characters without a glyph in the bundled face: ${rerun}`).toBe('');
  });

  it('hold the CJK characters used outside them (苏剑林 of the sources, 中文 of the language select) in the face every page loads', () => {
    expect(common.has('苏') && common.has('中')).toBe(true);
    const missing = [...common].filter((c) => !inCommon.has(c));
    expect(missing.join(''), rerun).toBe('');
  });

  it('are disjoint, and each range counts the characters it lists', () => {
    expect([...inZh].filter((c) => inCommon.has(c))).toEqual([]);
    expect(inCommon.size).toBe(CJK_SUBSETS.common.characters);
    expect(inZh.size).toBe(CJK_SUBSETS.zh.characters);
  });

  it('describe the font files beside them (SHA-256 and size of src/app/fonts/cjk-*.woff2)', () => {
    for (const name of ['common', 'zh'] as const) {
      const bytes = readFileSync(join(__dirname, 'fonts', `cjk-${name}.woff2`));
      expect(bytes.length, name).toBe(CJK_SUBSETS[name].bytes);
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(CJK_SUBSETS[name].sha256);
      expect(bytes.subarray(0, 4).toString('latin1'), `${name} is WOFF2`).toBe('wOF2');
    }
  });
});
