/** The current language's strings (the texts themselves live in src/i18n, one module per language). */
import { STRINGS, type Strings } from '../i18n';
import { useStore } from '../store/react';

export type { Strings };

export function useStrings(): Strings {
  const lang = useStore((s) => s.ui.lang);
  return STRINGS[lang] ?? STRINGS.en;
}
