/**
 * The UI typefaces, bundled, so that line breaks, legend rows and label widths are the same on every
 * machine whatever fonts it has installed:
 * - Inter (variable, weights 100–900) from @fontsource-variable/inter, its latin and greek subsets
 *   (woff2, ≈ 67 kB together): every Latin and Greek letter, digit and sign of the page — HTML, the
 *   charts' SVG text and what is measured with a canvas;
 * - Noto Sans CJK SC, subset to exactly the CJK characters the interface uses (scripts/subset-cjk-font.py,
 *   src/app/cjk-subset.ts): 'common' (the sources list's 苏剑林, the language select's 中文; 3 kB, every
 *   page) and 'zh' (the rest of the Chinese UI; ≈ 190 kB, only when Chinese is shown). A machine
 *   without CJK fonts (CI's, many containers and kiosks) drew every Han character as an empty box.
 *   One weight: headings are synthesized bold, as the system's CJK faces often are.
 * Signs outside these (arrows, ≈ ≤ √) come from the system's fonts per glyph: the slide figures are
 * sized by measuring, not by assuming a font, so they fit either way.
 *
 * The faces are registered from here rather than from CSS so the first render can wait for them:
 * `langFontReady(lang)` resolves when the faces that language needs are loaded, when loading failed
 * (a blocked request: the stack's system fonts take over) or after a timeout, and the app renders only
 * then, so nothing is laid out or measured in a font that is swapped later; the language select waits
 * for it too before it switches.
 */
import greekUrl from '@fontsource-variable/inter/files/inter-greek-wght-normal.woff2?url';
import latinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import cjkCommonUrl from './fonts/cjk-common.woff2?url';
import cjkZhUrl from './fonts/cjk-zh.woff2?url';
import { CJK_SUBSETS } from './cjk-subset';
import type { Lang } from '../store/store';
import { setExportFaces, type ExportFace } from '../export/fonts';

/** The family name CSS uses (`--font` in styles.css starts with it). */
export const UI_FAMILY = 'Inter Variable';
/** The bundled CJK subset's family (second in `--font`, before any system font). */
export const UI_CJK_FAMILY = 'Noto Sans SC UI';

type FaceSpec = ExportFace;

/** Unicode ranges of the two Inter subsets, as @fontsource declares them. */
const BASE: readonly FaceSpec[] = [
  {
    family: UI_FAMILY,
    url: latinUrl,
    weight: '100 900',
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  {
    family: UI_FAMILY,
    url: greekUrl,
    weight: '100 900',
    unicodeRange: 'U+0370-0377,U+037A-037F,U+0384-038A,U+038C,U+038E-03A1,U+03A3-03FF',
  },
  { family: UI_CJK_FAMILY, url: cjkCommonUrl, weight: '400', unicodeRange: CJK_SUBSETS.common.unicodeRange },
];

/** Faces a language adds to the base ones. */
const BY_LANG: Readonly<Record<Lang, readonly FaceSpec[]>> = {
  en: [],
  zh: [{ family: UI_CJK_FAMILY, url: cjkZhUrl, weight: '400', unicodeRange: CJK_SUBSETS.zh.unicodeRange }],
};

// an exported figure carries the faces its text uses, so it reads as on the page (src/export/fonts.ts)
setExportFaces([...BASE, ...Object.values(BY_LANG).flat()]);

let faces: Map<string, FontFace> | null = null;
const loads = new Map<string, Promise<void>>();

/**
 * Every face registered (once), none loaded: a registered face with a unicode-range loads by itself
 * when text needs it, so Chinese reached any way (a link, the history) still finds its face.
 */
function registered(): Map<string, FontFace> {
  if (!faces) {
    faces = new Map();
    for (const s of [...BASE, ...Object.values(BY_LANG).flat()]) {
      const face = new FontFace(s.family, `url(${JSON.stringify(s.url)}) format('woff2')`, {
        weight: s.weight,
        style: 'normal',
        display: 'block',
        unicodeRange: s.unicodeRange,
      });
      document.fonts.add(face);
      faces.set(s.url, face);
    }
  }
  return faces;
}

/** Loads a registered face; resolves when loaded or failed (never rejects). */
function loadFace(s: FaceSpec): Promise<void> {
  let p = loads.get(s.url);
  if (!p) {
    p = registered()
      .get(s.url)!
      .load()
      .then(
        () => undefined,
        () => undefined, // blocked or broken: the fallback fonts of --font are used
      );
    loads.set(s.url, p);
  }
  return p;
}

const canLoad = () => typeof document !== 'undefined' && !!document.fonts && typeof FontFace !== 'undefined';

/**
 * The faces `lang` needs (the base ones and its own), loaded; resolves when they are, or failed, or
 * after `timeoutMs`. Before the first render, and before a switch of language.
 */
export function langFontReady(lang: Lang, timeoutMs = 4000): Promise<void> {
  if (!canLoad()) return Promise.resolve();
  // loading any face registers them all (the other language's too, for its text to find it)
  const all = Promise.all([...BASE, ...BY_LANG[lang]].map(loadFace)).then(() => undefined);
  return Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}
