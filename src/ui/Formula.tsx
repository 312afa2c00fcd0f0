import { Fragment, memo, useSyncExternalStore } from 'react';
import { katexOptions, prerenderedFormula } from '../i18n/formulas';
import { displayPieces, inlineParts } from './formula-parts';

type Katex = (typeof import('katex'))['default'];

/**
 * KaTeX, loaded only for a formula without prerendered HTML (src/i18n/formulas.ts): a chunk of its
 * own, never part of the page's script. A formula waiting for it shows its TeX meanwhile.
 */
let katex: Katex | null = null;
let katexLoad: Promise<void> | null = null;
const katexListeners = new Set<() => void>();

function loadKatex(): void {
  katexLoad ??= import('katex').then(
    (m) => {
      katex = m.default;
      for (const f of katexListeners) f();
    },
    () => {
      katexLoad = null; // offline or blocked: the TeX stays shown; a later formula tries again
    },
  );
}

const katexNow = () => katex;

function subscribeKatex(f: () => void): () => void {
  katexListeners.add(f);
  return () => katexListeners.delete(f);
}

/** The formula's HTML: prerendered, else KaTeX's (once loaded); null while KaTeX loads. */
function html(tex: string, displayMode: boolean): { html: string; lazy: boolean } | null {
  const pre = prerenderedFormula(tex, displayMode);
  if (pre !== undefined) return { html: pre, lazy: false };
  if (katex) return { html: katex.renderToString(tex, katexOptions(displayMode)), lazy: true };
  loadKatex(); // from render, not an effect: idempotent (one shared load), and so on a server render too
  return null;
}

/** One formula or part: its HTML, or its TeX while KaTeX loads (`data-formula-lazy`: rendered on the page). */
function Rendered({
  tex,
  displayMode,
  className,
  label,
}: {
  tex: string;
  displayMode: boolean;
  className: string;
  label?: string;
}) {
  useSyncExternalStore(subscribeKatex, katexNow, katexNow);
  const out = html(tex, displayMode);
  const Tag = displayMode ? 'div' : 'span';
  if (!out)
    return (
      <Tag className={`${className} formula-pending`} aria-label={label} data-formula-lazy="">
        {tex}
      </Tag>
    );
  return (
    <Tag
      className={className}
      aria-label={label}
      data-formula-lazy={out.lazy ? '' : undefined}
      dangerouslySetInnerHTML={{ __html: out.html }}
    />
  );
}

/**
 * A formula as KaTeX renders it (HTML+MathML; errors show the source), from the prerendered table
 * (src/i18n/formulas.ts). A display formula of several equations (top-level `\qquad`,
 * formula-parts.ts) is laid out part by part, so that a narrow column wraps it onto lines instead of
 * cutting it off; an inline one (separated by `\ \ `, `\quad`) so that its lines break between them.
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
  if (inline) {
    const parts = inlineParts(tex);
    if (parts.length === 1) return <Rendered tex={tex} displayMode={false} className="formula-inline" label={label} />;
    // each part an inline block: whole on a line where it fits, wrapped inside where it alone does not
    return (
      <span className="formula-inline formula-inline-parts" aria-label={label}>
        {parts.map((p, i) => (
          <Fragment key={i}>
            {i > 0 && <wbr />}
            <Rendered tex={p} displayMode={false} className="formula-inline-part" />
          </Fragment>
        ))}
      </span>
    );
  }
  const pieces = displayPieces(tex);
  if (pieces.length === 1) return <Rendered tex={tex} displayMode className="formula" label={label} />;
  return (
    <div className="formula formula-parts" aria-label={label}>
      {pieces.map((p, i) => (
        <Rendered key={i} tex={p} displayMode className="formula-part" />
      ))}
    </div>
  );
});
