/**
 * The header's language select (beside the theme switch) and the document-level effects of the
 * language: `<html lang>` and the tab title follow it. Each language is named in itself
 * ("English", "中文") so a reader who cannot read the current one still finds theirs.
 */
import { useEffect, useRef, useState } from 'react';
import { useActions, useStore } from '../store/react';
import { LANGS, type Lang } from '../store/store';
import { useStrings } from '../ui/strings';
import { langFontReady } from './fonts';
import { loadStrings } from '../i18n';

/** BCP 47 tag for `<html lang>` (zh is Simplified Chinese as written in mainland China). */
export const HTML_LANG: Record<Lang, string> = { en: 'en', zh: 'zh-CN' };

export const ENDONYMS: Record<Lang, string> = { en: 'English', zh: '中文' };

/**
 * Resolves when `lang` can be shown: its strings (Chinese loads only when asked for) and its bundled
 * faces (those resolve on failure too, the system's faces taking over); rejects when its strings
 * cannot load (offline, a blocked chunk).
 */
export function languageReady(lang: Lang): Promise<void> {
  return Promise.all([loadStrings(lang), langFontReady(lang)]).then(() => undefined);
}

export function LanguageSwitch() {
  const t = useStrings().app;
  const lang = useStore((s) => s.ui.lang);
  const actions = useActions();
  // the choice whose face is still loading: the select shows it meanwhile; a later choice replaces it
  const [pending, setPending] = useState<Lang | null>(null);
  const chosen = useRef<Lang | null>(null);
  return (
    <label className="theme-switch lang-switch">
      {t.language}{' '}
      <select
        value={pending ?? lang}
        data-setting="lang"
        onChange={(e) => {
          // laid out once, in the new language's words and face; a quicker later choice wins over an
          // earlier one still loading; strings that cannot load leave the language as it was
          const next = e.target.value as Lang;
          chosen.current = next;
          setPending(next);
          void languageReady(next).then(
            () => settle(true),
            () => settle(false),
          );
          function settle(ready: boolean) {
            if (chosen.current !== next) return;
            chosen.current = null;
            setPending(null);
            if (ready) actions.setUi('lang', next);
            else actions.notify({ level: 'error', code: 'lang-unavailable', lang: next });
          }
        }}
      >
        {LANGS.map((l) => (
          <option key={l} value={l} lang={HTML_LANG[l]}>
            {ENDONYMS[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Keeps `<html lang>` and `document.title` in the current language. */
export function useDocumentLanguage(): void {
  const lang = useStore((s) => s.ui.lang);
  const title = useStrings().app.documentTitle;
  useEffect(() => {
    document.documentElement.lang = HTML_LANG[lang];
    document.title = title;
  }, [lang, title]);
}
