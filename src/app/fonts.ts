/**
 * The UI typeface, bundled: Inter (variable, weights 100–900) from @fontsource-variable/inter, only
 * its latin and greek subsets (woff2, ≈ 67 kB together). Every text on the page — HTML, the charts'
 * SVG text and what is measured with a canvas — uses it, so line breaks, legend rows and label
 * widths are the same on every machine whatever fonts it has installed. Characters outside the two
 * subsets (Han for the Chinese UI, arrows, ≈ ≤ √) come from the system's fonts per glyph: the slide
 * figures are sized by measuring, not by assuming a font, so they fit either way.
 *
 * The faces are registered from here rather than from CSS so the first render can wait for them:
 * `uiFontReady()` resolves when both are loaded, when loading failed (a blocked request: the stack's
 * system fonts take over) or after a timeout, and the app renders only then, so nothing is laid out
 * or measured in a font that is swapped later.
 */
import greekUrl from '@fontsource-variable/inter/files/inter-greek-wght-normal.woff2?url';
import latinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';

/** The family name CSS uses (`--font` in styles.css starts with it). */
export const UI_FAMILY = 'Inter Variable';

/** Unicode ranges of the two subsets, as @fontsource declares them. */
const SUBSETS = [
  {
    url: latinUrl,
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  { url: greekUrl, unicodeRange: 'U+0370-0377,U+037A-037F,U+0384-038A,U+038C,U+038E-03A1,U+03A3-03FF' },
] as const;

let ready: Promise<void> | null = null;

/** Registers the faces (once) and resolves when they are loaded, failed, or `timeoutMs` passed. */
export function uiFontReady(timeoutMs = 4000): Promise<void> {
  if (ready) return ready;
  if (typeof document === 'undefined' || !document.fonts || typeof FontFace === 'undefined') {
    ready = Promise.resolve();
    return ready;
  }
  const loads = SUBSETS.map((s) => {
    const face = new FontFace(UI_FAMILY, `url(${JSON.stringify(s.url)}) format('woff2')`, {
      weight: '100 900',
      style: 'normal',
      display: 'block',
      unicodeRange: s.unicodeRange,
    });
    document.fonts.add(face);
    return face.load().then(
      () => undefined,
      () => undefined, // blocked or broken: the fallback fonts of --font are used
    );
  });
  ready = Promise.race([
    Promise.all(loads).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, timeoutMs)),
  ]);
  return ready;
}
