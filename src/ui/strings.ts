/** The current language's strings (the texts themselves live in src/i18n, one module per language). */
import type { AttentionParams } from '../core/types';
import { STRINGS, type Strings } from '../i18n';
import { useStore } from '../store/react';

export type { Strings };

/** A parameter set as the status lines name it: n, d, m, the map's name, s, and causal when it is. */
export function paramsText(t: Strings, p: AttentionParams): string {
  return t.main.resultParams(p.n, p.d, p.m, t.controls.mapNames[p.featureMap], p.scale, p.causal);
}

export function useStrings(): Strings {
  const lang = useStore((s) => s.ui.lang);
  return STRINGS[lang] ?? STRINGS.en;
}
