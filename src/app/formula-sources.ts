/**
 * Every formula the interface can show, per language, as `Formula` renders it (src/ui/Formula.tsx):
 * a display formula as its pieces (formula-parts.ts), the feature maps' TeX also as inline pieces (the
 * estimators' table). What src/app/formulas.test.ts prerenders into src/i18n/formulas-generated-*.ts.
 * Not part of the page: it reads both languages' strings and the lecture.
 */
import type { Strings } from '../i18n/en';
import { formulaKey } from '../i18n/formulas';
import { STORY } from '../present/story';
import { displayPieces, inlineParts } from '../ui/formula-parts';

export interface FormulaUse {
  tex: string;
  displayMode: boolean;
}

/** A TeX command (a backslash and a letter): what tells a formula from the interface's prose. */
const TEX = /\\[A-Za-z]/;

/** Every string of `o` (nested objects and arrays; functions, which build prose, skipped) holding TeX. */
function texStrings(o: unknown, out: Set<string>): void {
  if (typeof o === 'string') {
    if (TEX.test(o)) out.add(o);
  } else if (o && typeof o === 'object') for (const v of Object.values(o)) texStrings(v, out);
}

/** The formulas a language's strings show (and, for English, the lecture's: its TeX is the same in every language). */
export function formulaUses(strings: Strings, withLecture: boolean): Map<string, FormulaUse> {
  const texts = new Set<string>();
  texStrings(strings, texts);
  if (withLecture) for (const step of STORY) texts.add(step.tex);
  const uses = new Map<string, FormulaUse>();
  for (const t of texts)
    for (const piece of displayPieces(t)) uses.set(formulaKey(piece, true), { tex: piece, displayMode: true });
  for (const t of Object.values(strings.names.mapTex))
    for (const piece of inlineParts(t)) uses.set(formulaKey(piece, false), { tex: piece, displayMode: false });
  return uses;
}
