/**
 * The page's bundled faces, embedded in an exported SVG. An SVG opened on its own (a viewer, a slide
 * deck, an <img> — which is how the PNG is drawn, src/export/png.ts) cannot reach the page's fonts:
 * its text fell back to whatever sans-serif the viewer had (other widths than on the page, and on a
 * machine without CJK fonts, Chinese labels as empty boxes). An export therefore carries, as data:
 * URLs in an @font-face <style>, each face its text uses: a face is embedded when the SVG names its
 * family and holds a visible character in its unicode-range (Inter's latin subset ≈ 64 kB as base64, the
 * Greek one ≈ 25 kB, the Chinese UI subset ≈ 260 kB).
 *
 * Which faces exist is the app's knowledge (src/app/fonts.ts); it hands them here with
 * `setExportFaces`, so this layer needs no asset of its own.
 */

export interface ExportFace {
  /** CSS family name, as the page's `font-family` names it */
  family: string;
  /** where the woff2 file is: a bundled asset URL, or a data: URL in the single-file build */
  url: string;
  /** CSS font-weight descriptor, e.g. '100 900' for a variable face */
  weight: string;
  /** CSS unicode-range descriptor, e.g. 'U+0000-00FF,U+0131' */
  unicodeRange: string;
}

let faces: readonly ExportFace[] = [];

/** The faces an export may embed (the app registers its bundled ones at start). */
export function setExportFaces(list: readonly ExportFace[]): void {
  faces = list;
}

/** `U+0000-00FF,U+0131,U+04??` as inclusive code-point ranges (a `?` wildcard spans its digit). */
export function parseUnicodeRange(range: string): [number, number][] {
  const out: [number, number][] = [];
  for (const part of range.split(',')) {
    const m = /^\s*U\+([0-9A-F?]{1,6})(?:-([0-9A-F]{1,6}))?\s*$/i.exec(part);
    if (!m) continue;
    const [lo, hi] = m[2]
      ? [parseInt(m[1]!, 16), parseInt(m[2], 16)]
      : [parseInt(m[1]!.replace(/\?/g, '0'), 16), parseInt(m[1]!.replace(/\?/g, 'F'), 16)];
    if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi) out.push([lo, hi]);
  }
  return out;
}

/**
 * The faces of `list` whose family `families` (the SVG's font-family values) names and that draw a
 * character of `text`, each with that character (its probe, png.ts).
 */
export function facesFor(
  list: readonly ExportFace[],
  families: string,
  text: string,
): { face: ExportFace; char: string }[] {
  const named = families.toLowerCase();
  return list.flatMap((face) => {
    const char = named.includes(face.family.toLowerCase()) ? probeChar(face, text) : null;
    return char === null ? [] : [{ face, char }];
  });
}

/** Bytes as base64, in chunks (String.fromCharCode over a whole font would overflow the call stack). */
export function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x8000)));
  return btoa(bin);
}

const dataUrls = new Map<string, Promise<string | null>>();

/**
 * A face's file as a data: URL (fetched once per page). A bundled face is same-origin, which the
 * served build's Content-Security-Policy (connect-src 'self') allows; the single-file build's faces
 * are data: URLs already (it allows no fetch). A face that cannot be read is left out (null): the
 * export still works, in the viewer's fonts.
 */
function faceDataUrl(url: string): Promise<string | null> {
  let p = dataUrls.get(url);
  if (!p) {
    p = url.startsWith('data:')
      ? Promise.resolve(url)
      : fetch(url)
          .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`HTTP ${r.status}`))))
          .then((b) => `data:font/woff2;base64,${base64(new Uint8Array(b))}`)
          .catch(() => null);
    dataUrls.set(url, p);
  }
  return p;
}

/** One @font-face rule (font-display: block: while a face loads its text is not drawn at all, see png.ts). */
export function fontFaceRule(face: ExportFace, src: string): string {
  return (
    `@font-face{font-family:"${face.family}";src:url(${src}) format("woff2");` +
    `font-weight:${face.weight};font-style:normal;font-display:block;unicode-range:${face.unicodeRange}}`
  );
}

/** A character of `text` that a face draws: what the PNG's renderer checks to know the face is loaded. */
export interface FaceProbe {
  family: string;
  char: string;
}

/** The first non-blank character of `text` in `face`'s unicode-range, or null. */
export function probeChar(face: ExportFace, text: string): string | null {
  const ranges = parseUnicodeRange(face.unicodeRange);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (/\S/u.test(ch) && ranges.some(([lo, hi]) => cp >= lo && cp <= hi)) return ch;
  }
  return null;
}

/**
 * The @font-face rules for an SVG whose text is `text` and whose styles name `families` (the
 * registered faces that apply, as data: URLs; '' when none applies or none could be read), and one
 * probe per embedded face.
 */
export async function embeddedFonts(families: string, text: string): Promise<{ css: string; probes: FaceProbe[] }> {
  const wanted = facesFor(faces, families, text);
  const srcs = await Promise.all(wanted.map((w) => faceDataUrl(w.face.url)));
  const used = wanted.flatMap((w, i) => (srcs[i] ? [{ ...w, src: srcs[i] }] : []));
  return {
    css: used.map((u) => fontFaceRule(u.face, u.src)).join(''),
    probes: used.map((u) => ({ family: u.face.family, char: u.char })),
  };
}
