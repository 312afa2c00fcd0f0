/** The current language's strings (the texts themselves live in src/i18n, one module per language). */
import { useEffect, useSyncExternalStore } from 'react';
import type { AttentionParams } from '../core/types';
import { en, loadedStrings, loadStrings, onStringsLoaded, type Strings } from '../i18n';
import { useStore } from '../store/react';

export type { Strings };

/** A parameter set as the status lines name it: n, d, m, the map's name, s, and causal when it is. */
export function paramsText(t: Strings, p: AttentionParams): string {
  return t.main.resultParams(p.n, p.d, p.m, t.controls.mapNames[p.featureMap], p.scale, p.causal);
}

/**
 * The strings of the store's language. The page switches language only once they are loaded
 * (main.tsx, LanguageSwitch); a language set any other way (history, a test) shows English until its
 * module arrives, then re-renders.
 */
export function useStrings(): Strings {
  const lang = useStore((s) => s.ui.lang);
  const strings = useSyncExternalStore(onStringsLoaded, () => loadedStrings(lang));
  useEffect(() => {
    if (!strings) loadStrings(lang).catch(() => undefined);
  }, [lang, strings]);
  return strings ?? en;
}
