/**
 * A figure on the page as one standalone SVG document: the chart's own <svg> layers (cloned, with
 * the computed styles that the stylesheet gave them inlined, so colours, dashes and fonts survive
 * outside the page and in both themes), canvas layers (heatmaps, colour bars) as <image> data URLs
 * upscaled without smoothing, the legend's HTML labels as <text>, and the figure's title on top.
 * Everything is placed where it sits on screen (getBoundingClientRect), so any chart composed of
 * SVG, canvas and legend HTML exports without chart-specific code. The result has no external
 * references: `withEmbeddedFonts` adds the page's bundled faces its text uses (src/export/fonts.ts).
 */
import { embeddedFonts, type FaceProbe } from './fonts';
import { canvasTextWidth } from './text-width';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Presentation properties copied from the computed style of every element of a cloned <svg>. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'paint-order',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
] as const;

/** Parts of a figure that are page furniture, not the figure: buttons, tables, tooltips, screen-reader text. */
const SKIP = '.export-toolbar, .data-table, .tooltip, .sr-only, [data-export-skip], button, select, input';
/** HTML whose own text belongs in the image (legend labels, colour-bar caption and ticks). */
const TEXT = '.legend li, .color-legend figcaption, .color-ticks span, .neg-key, [data-export-text]';

const PAD = 12;
const TITLE_SIZE = 14;
const CAPTION_SIZE = 11;

export interface ComposedSvg {
  svg: string;
  width: number;
  height: number;
  /** one character per embedded face (withEmbeddedFonts), for the PNG to wait until each is drawn */
  probes?: readonly FaceProbe[];
}

function visible(el: Element, r: DOMRect): boolean {
  if (r.width <= 0 || r.height <= 0) return false;
  const cs = getComputedStyle(el);
  return cs.display !== 'none' && cs.visibility !== 'hidden';
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function inlineStyles(src: Element, dst: Element): void {
  const cs = getComputedStyle(src);
  const style = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
  dst.setAttribute('style', style);
  dst.removeAttribute('class');
  const a = src.children;
  const b = dst.children;
  for (let i = 0; i < a.length && i < b.length; i++) inlineStyles(a[i]!, b[i]!);
}

/** A canvas as a PNG data URL, each axis upscaled by an integer factor (nearest neighbour) to at least 2× its box. */
function canvasImage(c: HTMLCanvasElement, boxW: number, boxH: number): string {
  const kx = Math.max(1, Math.ceil((2 * boxW) / Math.max(1, c.width)));
  const ky = Math.max(1, Math.ceil((2 * boxH) / Math.max(1, c.height)));
  if (kx === 1 && ky === 1) return c.toDataURL('image/png');
  const up = document.createElement('canvas');
  up.width = c.width * kx;
  up.height = c.height * ky;
  const ctx = up.getContext('2d');
  if (!ctx) return c.toDataURL('image/png');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(c, 0, 0, up.width, up.height);
  return up.toDataURL('image/png');
}

/** Union of client rectangles: the part of the page a block actually draws on. */
class Box {
  left = Infinity;
  top = Infinity;
  right = -Infinity;
  bottom = -Infinity;
  add(l: number, t: number, w: number, h: number): void {
    this.left = Math.min(this.left, l);
    this.top = Math.min(this.top, t);
    this.right = Math.max(this.right, l + w);
    this.bottom = Math.max(this.bottom, t + h);
  }
  get empty(): boolean {
    return !(this.right > this.left && this.bottom > this.top);
  }
}

/**
 * What a line may break between: a word, or a single CJK character — Chinese has no spaces, and a run
 * measured as one word spanning two lines was exported as one line running past the image's edge.
 */
const TOKENS =
  /[\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]+/g;

/** Lines of a text node as laid out on the page (wrapped text gives one line per line box). */
function lineRuns(node: Text): { text: string; left: number; top: number; width: number; height: number }[] {
  const src = node.data;
  const lines: { start: number; end: number; left: number; top: number; right: number; bottom: number }[] = [];
  const range = document.createRange();
  for (const m of src.matchAll(TOKENS)) {
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    if (r.width <= 0) continue;
    const last = lines.at(-1);
    if (last && Math.abs(r.top - last.top) < r.height / 2) {
      last.end = m.index + m[0].length;
      last.right = Math.max(last.right, r.right);
      last.bottom = Math.max(last.bottom, r.bottom);
    } else
      lines.push({
        start: m.index,
        end: m.index + m[0].length,
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
      });
  }
  return lines.map((l) => ({
    text: src.slice(l.start, l.end),
    left: l.left,
    top: l.top,
    width: l.right - l.left,
    height: l.bottom - l.top,
  }));
}

function textOf(el: Element, box: Box): string[] {
  const out: string[] = [];
  const cs = getComputedStyle(el);
  const style = escapeXml(
    `font-family:${cs.fontFamily};font-size:${cs.fontSize};font-weight:${cs.fontWeight};fill:${cs.color}`,
  );
  for (const node of el.childNodes) {
    if (!(node instanceof Text) || !node.data.trim()) continue;
    for (const line of lineRuns(node)) {
      box.add(line.left, line.top, line.width, line.height);
      out.push(
        `<text x="${line.left.toFixed(1)}" y="${(line.top + line.height / 2).toFixed(1)}" dominant-baseline="central" style="${style}">${escapeXml(line.text)}</text>`,
      );
    }
  }
  return out;
}

/** The layers of one block (the figure, or an extra such as the shared colour bar) in client coordinates, and the box they cover. */
function layers(root: Element, box: Box): string[] {
  const out: string[] = [];
  const serializer = new XMLSerializer();
  const all = root.querySelectorAll('svg, canvas, .swatch-dot, ' + TEXT);
  for (const el of all) {
    if (el.closest(SKIP)) continue;
    if (el.tagName.toLowerCase() === 'svg' && el.parentElement?.closest('svg')) continue; // nested: part of its root svg
    const r = el.getBoundingClientRect();
    if (el.matches(TEXT)) {
      if (visible(el, r)) out.push(...textOf(el, box));
      continue;
    }
    if (!visible(el, r)) continue;
    box.add(r.left, r.top, r.width, r.height);
    const x = r.left.toFixed(1);
    const y = r.top.toFixed(1);
    if (el instanceof HTMLCanvasElement) {
      out.push(
        `<image x="${x}" y="${y}" width="${r.width.toFixed(1)}" height="${r.height.toFixed(1)}" preserveAspectRatio="none" style="image-rendering:pixelated" xlink:href="${canvasImage(el, r.width, r.height)}"/>`,
      );
    } else if (el instanceof SVGSVGElement) {
      // labels may overflow the <svg> box (overflow: visible); the export keeps them. Only what is
      // drawn counts: getBBox() would also take in a series' geometry clipped off the plot (a theory
      // line far above the axis), which grew the image by hundreds of empty pixels
      for (const t of el.querySelectorAll('text')) {
        const tr = t.getBoundingClientRect();
        if (visible(t, tr)) box.add(tr.left, tr.top, tr.width, tr.height);
      }
      const clone = el.cloneNode(true) as SVGSVGElement;
      inlineStyles(el, clone);
      for (const attr of ['role', 'aria-label', 'aria-hidden', 'tabindex']) clone.removeAttribute(attr);
      clone.setAttribute('x', x);
      clone.setAttribute('y', y);
      clone.setAttribute('width', r.width.toFixed(1));
      clone.setAttribute('height', r.height.toFixed(1));
      clone.setAttribute('overflow', 'visible');
      out.push(serializer.serializeToString(clone));
    } else {
      // .swatch-dot: an HTML colour dot in a legend
      const bg = getComputedStyle(el).backgroundColor;
      out.push(
        `<circle cx="${(r.left + r.width / 2).toFixed(1)}" cy="${(r.top + r.height / 2).toFixed(1)}" r="${(r.width / 2).toFixed(1)}" fill="${escapeXml(bg)}"/>`,
      );
    }
  }
  return out;
}

/** The opening tag of an exported document of `width` × `height` (user units = CSS px). */
export function svgRootTag(width: number, height: number): string {
  return `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
}

function pageBackground(): string {
  for (const el of [document.body, document.documentElement]) {
    const bg = getComputedStyle(el).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

/** `text`'s width in `font` (the page's kept canvas; without one, an estimate from its length). */
function textWidth(text: string, font: string): number {
  return canvasTextWidth(text, font) ?? text.length * TITLE_SIZE * 0.6;
}

/**
 * `text` in lines no wider than `max` (by `measure`), broken after its separators (', ', the full-width
 * comma U+FF0C of Chinese, ' · ');
 * a piece wider than `max` stands on a line of its own.
 */
export function wrapAtSeparators(text: string, max: number, measure: (t: string) => number): string[] {
  const pieces = text.split(/(?<=, |\uFF0C| · )/);
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line && measure((line + piece).trimEnd()) > max) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += piece;
  }
  if (line) lines.push(line.trimEnd());
  return lines;
}

/**
 * `root` and then each of `extras` (stacked below it, e.g. the colour bar shared by three heatmaps)
 * as one SVG document with `title` on top, `caption` (the parameters) in a smaller, muted line
 * under it, and the page's background behind.
 */
export function composeFigureSvg(
  root: Element,
  title: string,
  extras: readonly Element[] = [],
  caption?: string,
): ComposedSvg {
  const bodyCs = getComputedStyle(document.body);
  const fg = bodyCs.color;
  const muted = bodyCs.getPropertyValue('--muted').trim() || fg;
  const family = bodyCs.fontFamily;
  const titleFont = `600 ${TITLE_SIZE}px ${family}`;
  const blocks = [root, ...extras].flatMap((block) => {
    const box = new Box();
    const drawn = layers(block, box);
    return box.empty ? [] : [{ box, drawn }];
  });
  let width = Math.max(textWidth(title, titleFont), ...blocks.map((b) => b.box.right - b.box.left));
  // the caption wraps at its separators to the figure's width, rather than widening a narrow figure
  const captionWidth = (t: string) => textWidth(t, `${CAPTION_SIZE}px ${family}`);
  const lines = caption ? wrapAtSeparators(caption, width, captionWidth) : [];
  for (const l of lines) width = Math.max(width, captionWidth(l));
  const captionTop = PAD + TITLE_SIZE + 5;
  const top = (lines.length ? captionTop + lines.length * (CAPTION_SIZE + 4) - 4 : PAD + TITLE_SIZE) + 10;
  const parts: string[] = [];
  let y = top;
  for (const { box, drawn } of blocks) {
    parts.push(
      `<g transform="translate(${(PAD - box.left).toFixed(1)},${(y - box.top).toFixed(1)})">${drawn.join('')}</g>`,
    );
    y += box.bottom - box.top + 12;
  }
  width = Math.ceil(width + 2 * PAD);
  const height = Math.ceil(y - 12 + PAD);
  const text = (at: number, size: number, weight: number, fill: string, body: string) =>
    `<text x="${PAD}" y="${at}" style="${escapeXml(`font-family:${family};font-size:${size}px;font-weight:${weight};fill:${fill}`)}">${escapeXml(body)}</text>`;
  const svg =
    svgRootTag(width, height) +
    `<title>${escapeXml(title)}</title>` +
    `<rect width="100%" height="100%" fill="${escapeXml(pageBackground())}"/>` +
    text(PAD + TITLE_SIZE, TITLE_SIZE, 600, fg, title) +
    lines
      .map((l, i) => text(captionTop + CAPTION_SIZE + i * (CAPTION_SIZE + 4), CAPTION_SIZE, 400, muted, l))
      .join('') +
    parts.join('') +
    `</svg>`;
  return { svg, width, height };
}

/**
 * `composed` with the bundled faces its text uses embedded as an @font-face <style> (fonts.ts), so a
 * viewer — and the <img> the PNG is drawn from — shows the page's typeface, not its own fallback.
 */
export async function withEmbeddedFonts(composed: ComposedSvg): Promise<ComposedSvg> {
  const text = new DOMParser().parseFromString(composed.svg, 'image/svg+xml').documentElement.textContent ?? '';
  const { css, probes } = await embeddedFonts(composed.svg, text);
  if (!css) return composed;
  const at = composed.svg.indexOf('</title>') + '</title>'.length;
  return {
    ...composed,
    svg: `${composed.svg.slice(0, at)}<defs><style>${css}</style></defs>${composed.svg.slice(at)}`,
    probes,
  };
}
