import { describe, expect, it } from 'vitest';
import { withProbeStrip } from './png';
import { svgRootTag } from './svg';

describe('withProbeStrip', () => {
  const composed = {
    svg: `${svgRootTag(300, 100)}<title>t</title><rect width="100%" height="100%"/></svg>`,
    width: 300,
    height: 100,
  };
  const out = withProbeStrip(composed, [
    { family: 'Inter Variable', char: 'σ' },
    { family: 'Noto Sans SC UI', char: '<' },
  ]);

  it('grows the document by one strip below the figure, keeping its width', () => {
    expect(out.startsWith(svgRootTag(300, 132))).toBe(true);
    expect(out).toContain('<title>t</title><rect width="100%" height="100%"/>');
    expect(out.endsWith('</svg>')).toBe(true);
    expect(out.match(/<svg/g)).toHaveLength(1);
  });

  it('draws each probe in its face alone, black on a white strip, one cell each', () => {
    expect(out).toContain('<rect x="0" y="100" width="300" height="32" fill="#fff"/>');
    expect(out).toContain(
      '<text x="6" y="124" style="font-family:&quot;Inter Variable&quot;;font-size:20px;fill:#000">σ</text>',
    );
    expect(out).toContain(
      '<text x="38" y="124" style="font-family:&quot;Noto Sans SC UI&quot;;font-size:20px;fill:#000">&lt;</text>',
    );
  });
});
