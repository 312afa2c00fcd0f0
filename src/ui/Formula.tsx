import katex from 'katex';
import { memo } from 'react';

/** KaTeX-rendered formula (rendered to HTML+MathML once per tex string; errors show the source). */
export const Formula = memo(function Formula({
  tex,
  inline = false,
  label,
}: {
  tex: string;
  inline?: boolean;
  label?: string;
}) {
  const html = katex.renderToString(tex, {
    displayMode: !inline,
    throwOnError: false,
    output: 'htmlAndMathml',
    strict: false,
  });
  const Tag = inline ? 'span' : 'div';
  return (
    <Tag
      className={inline ? 'formula-inline' : 'formula'}
      aria-label={label}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});
