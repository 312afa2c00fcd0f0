import { describe, expect, it } from 'vitest';
import { formulaParts, inlineParts } from './formula-parts';

describe('formulaParts', () => {
  it('splits a display formula at its top-level \\qquad', () => {
    expect(formulaParts(String.raw`A=\frac{a}{b},\qquad \hat A=c,\qquad x=y`)).toEqual([
      String.raw`A=\frac{a}{b},`,
      String.raw`\hat A=c,`,
      'x=y',
    ]);
  });

  it('leaves a formula without a top-level \\qquad whole', () => {
    const tex = String.raw`\phi(x)=\tfrac{1}{\sqrt m}e^{-\|x\|^2/2}`;
    expect(formulaParts(tex)).toEqual([tex]);
    // \qquadx is not \qquad; \quad is not \qquad
    expect(formulaParts(String.raw`a\quad b`)).toEqual([String.raw`a\quad b`]);
  });

  it('keeps a \\qquad inside braces or an environment', () => {
    const braces = String.raw`\text{a}\underbrace{x\qquad y}_{n}`;
    expect(formulaParts(braces)).toEqual([braces]);
    const env = String.raw`\begin{gathered}a\le d,\qquad b\le n\\ r=1\end{gathered}`;
    expect(formulaParts(env)).toEqual([env]);
    // an escaped brace does not open a group
    expect(formulaParts(String.raw`\{a\},\qquad b`)).toEqual([String.raw`\{a\},`, 'b']);
  });

  it('joins a lone connective to the part after it', () => {
    expect(formulaParts(String.raw`4n^2d\quad\text{vs}\quad 8nmd\qquad\Rightarrow\qquad n_\times=2m`)).toEqual([
      String.raw`4n^2d\quad\text{vs}\quad 8nmd`,
      String.raw`\Rightarrow\ n_\times=2m`,
    ]);
  });
});

describe('inlineParts', () => {
  it('cuts an inline formula after each top-level \\ \\ , \\quad and \\qquad, each kept at the end of its part', () => {
    expect(inlineParts(String.raw`a=b,\ \ c=\tfrac{1}{2}\ \ (\text{x})`)).toEqual([
      String.raw`a=b,\ \ `,
      String.raw`c=\tfrac{1}{2}\ \ `,
      String.raw`(\text{x})`,
    ]);
    expect(inlineParts(String.raw`\phi(x)=e^{Wx}\quad(\text{no terms})`)).toEqual([
      String.raw`\phi(x)=e^{Wx}\quad`,
      String.raw`(\text{no terms})`,
    ]);
    expect(inlineParts(String.raw`a,\qquad b`)).toEqual([String.raw`a,\qquad`, ' b']);
  });

  it('leaves single spaces, separators inside braces and longer control words alone', () => {
    for (const tex of [
      String.raw`\big[1,\ x,\ \operatorname{vec}(xx^\top)\big]`,
      String.raw`\text{a}_{x\ \ y\quad z}`,
      String.raw`a\quadx b`,
    ])
      expect(inlineParts(tex)).toEqual([tex]);
  });

  it('joins its parts back into the formula (nothing lost or added)', () => {
    const tex = String.raw`\phi(x)=[1,\ x],\ \ \phi(x)^\top\phi(y)=1+x^\top y\quad(1+d+d^2\text{ features})`;
    expect(inlineParts(tex).join('')).toBe(tex);
  });
});
