/**
 * SVG → PNG in the browser's own renderer: the SVG document becomes an <img> (blob: URL), is drawn
 * on a canvas `scale` times its size (2× by default: sharp on a projector and in print) and encoded
 * with canvas.toBlob. No library, no eval, no network; the SVG from composeFigureSvg references
 * nothing outside itself, so the canvas is never tainted. Needs `img-src blob: data:` in a CSP.
 */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas context');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
