import { describe, expect, it } from 'vitest';
import { formulaParts } from './formula-parts';

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
