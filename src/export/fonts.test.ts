import { describe, expect, it } from 'vitest';
import { base64, facesFor, fontFaceRule, parseUnicodeRange, probeChar, type ExportFace } from './fonts';

const LATIN: ExportFace = {
  family: 'Inter Variable',
  url: 'latin.woff2',
  weight: '100 900',
  unicodeRange: 'U+0000-00FF,U+2212',
};
const GREEK: ExportFace = {
  family: 'Inter Variable',
  url: 'greek.woff2',
  weight: '100 900',
  unicodeRange: 'U+0370-03FF',
};
const CJK: ExportFace = {
  family: 'Noto Sans SC UI',
  url: 'zh.woff2',
  weight: '400',
  unicodeRange: 'U+4E00,U+503C,U+5947',
};
const ALL = [LATIN, GREEK, CJK];
const FAMILIES = 'font-family:&quot;Inter Variable&quot;, &quot;Noto Sans SC UI&quot;, system-ui, sans-serif';

describe('parseUnicodeRange', () => {
  it('reads single points, spans and wildcards as inclusive code-point ranges', () => {
    expect(parseUnicodeRange('U+0000-00FF, U+0131,U+04??')).toEqual([
      [0, 0xff],
      [0x131, 0x131],
      [0x400, 0x4ff],
    ]);
  });
  it('skips parts that are not ranges instead of failing', () => {
    expect(parseUnicodeRange('U+0041,nonsense,U+0050-0040')).toEqual([[0x41, 0x41]]);
  });
});

describe('probeChar', () => {
  it('is the first non-blank character the face draws', () => {
    expect(probeChar(GREEK, 'a σ₁ b')).toBe('σ');
    expect(probeChar(CJK, '奇异值 σ')).toBe('奇');
  });
  it('is null when the face draws only blanks of the text, or none of it', () => {
    expect(probeChar(LATIN, '奇 值')).toBeNull(); // U+0020 is in the Latin range, but a space shows no ink
    expect(probeChar(CJK, 'abc')).toBeNull();
  });
});

describe('facesFor', () => {
  it('takes the faces whose family the SVG names and that draw some of its text, each with the character it draws', () => {
    expect(facesFor(ALL, FAMILIES, 'error 10−3')).toEqual([{ face: LATIN, char: 'e' }]);
    expect(facesFor(ALL, FAMILIES, '奇异值（除以 σ₁ 归一化）')).toEqual([
      { face: GREEK, char: 'σ' },
      { face: CJK, char: '奇' },
    ]);
  });
  it('takes none of a family the SVG does not name', () => {
    expect(facesFor(ALL, 'font-family:serif', 'error σ 奇')).toEqual([]);
  });
});

describe('base64', () => {
  it('encodes bytes as btoa does, also past one chunk', () => {
    const bytes = Uint8Array.from({ length: 70_001 }, (_, i) => (i * 31) & 255);
    expect(base64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

describe('fontFaceRule', () => {
  it('declares the family, the data, the weight range, block display and the unicode-range', () => {
    expect(fontFaceRule(GREEK, 'data:font/woff2;base64,d09GMg==')).toBe(
      '@font-face{font-family:"Inter Variable";src:url(data:font/woff2;base64,d09GMg==) format("woff2");' +
        'font-weight:100 900;font-style:normal;font-display:block;unicode-range:U+0370-03FF}',
    );
  });
});
