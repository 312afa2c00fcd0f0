/**
 * The page's formulas, rendered by KaTeX ahead of time: the HTML (with MathML for assistive
 * technology) of every formula the interface shows, keyed by mode and TeX. KaTeX itself (~235 kB of
 * script, a quarter of the page's) is then not in the page's script: `Formula` (src/ui) shows the
 * prerendered HTML, and loads KaTeX as a chunk of its own only for a formula missing here (none in
 * the shipped interface: src/app/formulas.test.ts holds every formula of both languages and the
 * lecture here, equal to what KaTeX renders now, and e2e/formulas.spec.mjs finds no formula rendered
 * the slow way on the page, in Chinese or on any slide).
 *
 * English's table (with the lecture's formulas) is in the page's script; the few formulas only the
 * Chinese strings have are in the Chinese chunk, added when it loads (src/i18n/index.ts).
 * Regenerate both with `npm run formulas` after changing a formula or KaTeX.
 */
import { FORMULAS_EN } from './formulas-generated-en';

/** KaTeX's options for every formula of the page (the prerendered ones and any rendered on the page). */
export function katexOptions(displayMode: boolean) {
  return { displayMode, throwOnError: false, output: 'htmlAndMathml', strict: false } as const;
}

/** A formula's key: its mode ('d' display, 'i' inline) and its TeX. */
export function formulaKey(tex: string, displayMode: boolean): string {
  return `${displayMode ? 'd' : 'i'}:${tex}`;
}

const table = new Map<string, string>(Object.entries(FORMULAS_EN));

/** Adds a language's prerendered formulas (the Chinese chunk's, when it loads). */
export function addFormulas(entries: Readonly<Record<string, string>>): void {
  for (const [k, v] of Object.entries(entries)) table.set(k, v);
}

/** The prerendered HTML of `tex` in that mode, or undefined when it has none. */
export function prerenderedFormula(tex: string, displayMode: boolean): string | undefined {
  return table.get(formulaKey(tex, displayMode));
}
