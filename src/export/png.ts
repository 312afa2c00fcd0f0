/**
 * SVG → PNG in the browser's own renderer: the SVG document becomes an <img>, is drawn on a canvas
 * `scale` times its size (2× by default: sharp on a projector and in print) and encoded with
 * canvas.toBlob. No library, no eval, no network; the SVG from composeFigureSvg references nothing
 * outside itself, so the canvas is never tainted. The image is loaded from a blob: URL, or from a
 * data: URL where a Content-Security-Policy allows only that (`img-src` needs one of the two).
 *
 * Faces embedded in the SVG (withEmbeddedFonts) load only when the image is first drawn, and
 * `decode()` does not wait for them: a figure drawn at once had no text in them at all (font-display:
 * block; Chrome). So the image is drawn with a strip below the figure holding one probe character
 * per face, in that face alone, and is redrawn until every probe shows ink — each face is then
 * loaded in the image's document (or failed, and the UA's default face drew the probe) — before
 * the figure, without the strip, is drawn for the file.
 */
import type { FaceProbe } from './fonts';
import { escapeXml, svgRootTag, type ComposedSvg } from './svg';

/** Probe strip: one cell per face, each probe a 20 px character. */
const CELL = 32;
/** Font-display block period in Chrome: by then a face is drawn, or its fallback is. */
const FACES_TIMEOUT_MS = 3500;

async function loadImage(src: string): Promise<HTMLImageElement> {
  const img = new Image();
  img.decoding = 'async';
  img.src = src;
  await img.decode();
  return img;
}

async function svgImage(svg: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    return await loadImage(url);
  } catch {
    return await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`).catch(() => {
      throw new Error(
        'the browser could not load the figure as an image (does a Content-Security-Policy block blob: and data: images?)',
      );
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** `c` with a probe strip below its figure: black probe characters on white, one cell each. */
export function withProbeStrip(c: ComposedSvg, probes: readonly FaceProbe[]): string {
  const width = Math.max(c.width, probes.length * CELL);
  const strip =
    `<rect x="0" y="${c.height}" width="${width}" height="${CELL}" fill="#fff"/>` +
    probes
      .map(
        (p, i) =>
          `<text x="${i * CELL + 6}" y="${c.height + 24}" style="font-family:&quot;${escapeXml(p.family)}&quot;;font-size:20px;fill:#000">${escapeXml(p.char)}</text>`,
      )
      .join('');
  const body = c.svg.slice(c.svg.indexOf('>') + 1, c.svg.lastIndexOf('</svg>'));
  return `${svgRootTag(width, c.height + CELL)}${body}${strip}</svg>`;
}

/** Redraws the probe strip of `img` until each cell has ink, or the block period has passed. */
async function facesDrawn(img: HTMLImageElement, figureHeight: number, count: number): Promise<void> {
  const canvas = document.createElement('canvas');
  canvas.width = count * CELL;
  canvas.height = CELL;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return;
  const t0 = performance.now();
  for (;;) {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, figureHeight, canvas.width, CELL, 0, 0, canvas.width, CELL);
    const px = ctx.getImageData(0, 0, canvas.width, CELL).data;
    const inked = new Set<number>();
    for (let i = 0; i < px.length; i += 4)
      if (px[i + 3]! > 0 && px[i]! < 128) inked.add(Math.floor(((i / 4) % canvas.width) / CELL));
    if (inked.size >= count || performance.now() - t0 > FACES_TIMEOUT_MS) return;
    await new Promise((r) => setTimeout(r, 16));
  }
}

export async function svgToPng(c: ComposedSvg, scale = 2): Promise<Blob> {
  const probes = c.probes ?? [];
  const img = await svgImage(probes.length ? withProbeStrip(c, probes) : c.svg);
  if (probes.length) await facesDrawn(img, c.height, probes.length);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(c.width * scale));
  canvas.height = Math.max(1, Math.round(c.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  ctx.drawImage(img, 0, 0, c.width, c.height, 0, 0, canvas.width, canvas.height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'),
  );
}
