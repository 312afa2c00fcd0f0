/**
 * The interface's strings by language. English is in the page's script; another language's module is
 * loaded when it is first asked for (a Chinese page or the language select), so an English page or
 * embed does not carry ~32 kB (gzip) of Chinese it never shows. The single-file build inlines it.
 */
import type { Lang } from '../store/store';
import { en, type Strings } from './en';
import { addFormulas } from './formulas';

export type { Strings };
export { en };

const loaders: Readonly<Record<Exclude<Lang, 'en'>, () => Promise<Strings>>> = {
  // the strings and the formulas only they have (prerendered, ./formulas.ts)
  zh: () =>
    Promise.all([import('./zh'), import('./formulas-generated-zh')]).then(([m, f]) => {
      addFormulas(f.FORMULAS_ZH);
      return m.zh;
    }),
};

const loaded: Partial<Record<Lang, Strings>> = { en };
const loading = new Map<Lang, Promise<Strings>>();
const listeners = new Set<() => void>();

/** `lang`'s strings if they are loaded (English always is). */
export function loadedStrings(lang: Lang): Strings | undefined {
  return loaded[lang];
}

/** `lang`'s strings, loading their module once; a failed load can be asked for again. */
export function loadStrings(lang: Lang): Promise<Strings> {
  const have = loaded[lang];
  if (have) return Promise.resolve(have);
  let p = loading.get(lang);
  if (!p) {
    p = loaders[lang as Exclude<Lang, 'en'>]().then(
      (s) => {
        loaded[lang] = s;
        loading.delete(lang);
        for (const f of listeners) f();
        return s;
      },
      (e: unknown) => {
        loading.delete(lang);
        throw e;
      },
    );
    loading.set(lang, p);
  }
  return p;
}

/** Calls `f` whenever a language's strings arrive; returns the unsubscribe. */
export function onStringsLoaded(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
