/**
 * SVG → PNG in the browser's own renderer: the SVG document becomes an <img>, is drawn on a canvas
 * `scale` times its size (2× by default: sharp on a projector and in print) and encoded with
 * canvas.toBlob. No library, no eval, no network; the SVG from composeFigureSvg references nothing
 * outside itself, so the canvas is never tainted. The image is loaded from a blob: URL, or from a
 * data: URL where a Content-Security-Policy allows only that (`img-src` needs one of the two).
 */
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

export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const img = await svgImage(svg);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'),
  );
}
