import katex from 'katex';
import { memo } from 'react';
import { formulaParts } from './formula-parts';

const render = (tex: string, displayMode: boolean) =>
  katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml', strict: false });

/**
 * KaTeX-rendered formula (rendered to HTML+MathML once per tex string; errors show the source). A
 * display formula of several equations (top-level `\qquad`, formula-parts.ts) is laid out part by part,
 * so that a narrow column wraps it onto lines instead of cutting it off.
 */
export const Formula = memo(function Formula({
  tex,
  inline = false,
  label,
}: {
  tex: string;
  inline?: boolean;
  label?: string;
}) {
  if (inline)
    return (
      <span className="formula-inline" aria-label={label} dangerouslySetInnerHTML={{ __html: render(tex, false) }} />
    );
  const parts = formulaParts(tex);
  if (parts.length === 1)
    return <div className="formula" aria-label={label} dangerouslySetInnerHTML={{ __html: render(tex, true) }} />;
  return (
    <div className="formula formula-parts" aria-label={label}>
      {parts.map((p, i) => (
        <div key={i} className="formula-part" dangerouslySetInnerHTML={{ __html: render(p, true) }} />
      ))}
    </div>
  );
});
