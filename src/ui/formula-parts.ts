/**
 * A display formula's parts: the pieces its top-level `\qquad` separates (`A = …,\qquad \hat A = …`),
 * so that each can be laid out on its own and a narrow column (a phone, a blog's iframe) wraps them
 * onto lines instead of cutting the row off at its edge. A `\qquad` inside braces or an environment
 * (`\begin{gathered} … \end{gathered}`) is left alone, and a part that is only a connective
 * (`\Rightarrow`) opens the part after it rather than standing on a line of its own.
 */

const SEPARATOR = '\\qquad';
const CONNECTIVE = /^\\(?:Rightarrow|Longrightarrow|iff|implies|to|quad)$/;

export function formulaParts(tex: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let envs = 0;
  let from = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\') {
      if (tex.startsWith('\\begin{', i)) envs++;
      else if (tex.startsWith('\\end{', i)) envs--;
      else if (
        depth === 0 &&
        envs === 0 &&
        tex.startsWith(SEPARATOR, i) &&
        !/[A-Za-z]/.test(tex[i + SEPARATOR.length] ?? '')
      ) {
        parts.push(tex.slice(from, i));
        from = i + SEPARATOR.length;
        i = from - 1;
        continue;
      }
      i++; // the escaped character (\{, \\) is not a brace or a separator
    } else if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  parts.push(tex.slice(from));
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
