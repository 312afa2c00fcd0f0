/**
 * A display formula's parts: the pieces its top-level `\qquad` separates (`A = …,\qquad \hat A = …`),
 * so that each can be laid out on its own and a narrow column (a phone, a blog's iframe) wraps them
 * onto lines instead of cutting the row off at its edge. A `\qquad` inside braces or an environment
 * (`\begin{gathered} … \end{gathered}`) is left alone, and a part that is only a connective
 * (`\Rightarrow`) opens the part after it rather than standing on a line of its own.
 */

const SEPARATOR = '\\qquad';
const CONNECTIVE = /^\\(?:Rightarrow|Longrightarrow|iff|implies|to|quad)$/;

/**
 * `tex` cut at its top-level separators: `separatorAt(i)` gives the length of one starting at i (0: none).
 * With `keep` a separator stays at the end of the part before it (its space drawn there), else it is
 * dropped. Inside braces or an environment nothing is cut.
 */
function splitTopLevel(tex: string, separatorAt: (i: number) => number, keep: boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let envs = 0;
  let from = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\') {
      const sep = depth === 0 && envs === 0 ? separatorAt(i) : 0;
      if (sep > 0) {
        parts.push(tex.slice(from, keep ? i + sep : i));
        from = i + sep;
        i = from - 1;
        continue;
      }
      if (tex.startsWith('\\begin{', i)) envs++;
      else if (tex.startsWith('\\end{', i)) envs--;
      i++; // the escaped character (\{, \\) is not a brace or a separator
    } else if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  parts.push(tex.slice(from));
  return parts;
}

/** A control word (`\quad`) at i, not the start of a longer one (`\quadx`). */
const wordAt = (tex: string, i: number, word: string) =>
  tex.startsWith(word, i) && !/[A-Za-z]/.test(tex[i + word.length] ?? '');

export function formulaParts(tex: string): string[] {
  const parts = splitTopLevel(tex, (i) => (wordAt(tex, i, SEPARATOR) ? SEPARATOR.length : 0), false);
  const merged: string[] = [];
  let pending = '';
  for (const raw of parts) {
    const part = raw.trim();
    if (!part) continue;
    if (CONNECTIVE.test(part)) {
      pending += `${part}\\ `;
      continue;
    }
    merged.push(pending + part);
    pending = '';
  }
  if (pending) merged.push(pending.trim());
  return merged.length ? merged : [tex];
}

/** What a display formula is rendered as: the whole TeX when it has one part, else its parts. */
export function displayPieces(tex: string): string[] {
  const parts = formulaParts(tex);
  return parts.length === 1 ? [tex] : parts;
}

/**
 * An inline formula's parts (the estimators' table): cut after each top-level `\ \ `, `\quad` and `\qquad`, the
 * spaces that separate its equations and its remark, each kept at the end of the part before it.
 * `Formula` sets each part as an inline block, so a line breaks between equations where one fits —
 * not after the `=` of the next (`…, ρ =` | `1/(n²d) Σ …`), where KaTeX's own breaks would put it.
 */
export function inlineParts(tex: string): string[] {
  const separatorAt = (i: number) =>
    tex.startsWith('\\ \\ ', i) ? 4 : wordAt(tex, i, '\\quad') ? 5 : wordAt(tex, i, SEPARATOR) ? 6 : 0;
  return splitTopLevel(tex, separatorAt, true).filter((p) => p.trim() !== '');
}
