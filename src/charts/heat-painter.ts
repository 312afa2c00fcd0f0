/**
 * Paints heatmap canvases. The colouring (a pass over every cell through the colour table) runs in a
 * small worker that returns an ImageBitmap, so the main thread only draws a finished image; where
 * there is no worker, no OffscreenCanvas or no createImageBitmap, or the worker fails, it colours here.
 * Each canvas keeps its previous image until the newest job for it is ready; older jobs are dropped.
 *
 * `heatmapColourings` counts where the colourings ran (read by the browser tests through
 * `globalThis.__heatmapColourings`).
 */
import { colourCells, type HeatScaleSpec } from './heat-colour';

export interface HeatColourRequest {
  id: number;
  data: Float32Array;
  cells: number;
  scale: HeatScaleSpec;
}

export type HeatColourReply =
  { id: number; bitmap: ImageBitmap } | { id: number; pixels: Uint8ClampedArray<ArrayBuffer> };

export const heatmapColourings = { worker: 0, main: 0 };
(globalThis as { __heatmapColourings?: typeof heatmapColourings }).__heatmapColourings = heatmapColourings;

interface Job {
  canvas: HTMLCanvasElement;
  cells: number;
  data: Float32Array;
  scale: HeatScaleSpec;
  onDrawn: () => void;
}

let worker: Worker | null = null;
/** the worker could not be started or failed: colour on the main thread from now on */
let broken = false;
let nextId = 1;
const jobs = new Map<number, Job>();
/** the newest job per canvas; a reply for any other is dropped */
const newest = new WeakMap<HTMLCanvasElement, number>();

function canUseWorker(): boolean {
  return (
    !broken &&
    typeof Worker === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof createImageBitmap === 'function'
  );
}

function getWorker(): Worker | null {
  if (worker || !canUseWorker()) return worker;
  try {
    const w = new Worker(new URL('./heat-colour-worker.ts', import.meta.url), { type: 'module', name: 'heat-colour' });
    w.onmessage = (e: MessageEvent<HeatColourReply>) => onReply(e.data);
    w.onerror = () => fail();
    w.onmessageerror = () => fail();
    worker = w;
  } catch {
    broken = true;
  }
  return worker;
}

/** The worker is gone: every job it held is coloured here. */
function fail(): void {
  broken = true;
  worker?.terminate();
  worker = null;
  const held = [...jobs.entries()];
  jobs.clear();
  for (const [id, job] of held) if (newest.get(job.canvas) === id) paintHere(job);
}

function sized(canvas: HTMLCanvasElement, cells: number): CanvasRenderingContext2D | null {
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  if (canvas.width !== cells) canvas.width = cells;
  if (canvas.height !== cells) canvas.height = cells;
  return ctx;
}

function paintHere(job: Job): void {
  heatmapColourings.main++;
  const ctx = sized(job.canvas, job.cells);
  if (!ctx) return;
  const img = ctx.createImageData(job.cells, job.cells);
  img.data.set(colourCells(job.data, job.cells, job.scale));
  ctx.putImageData(img, 0, 0);
  job.onDrawn();
}

function onReply(reply: HeatColourReply): void {
  const job = jobs.get(reply.id);
  jobs.delete(reply.id);
  const current = job && newest.get(job.canvas) === reply.id;
  if ('bitmap' in reply) {
    if (current) {
      heatmapColourings.worker++;
      sized(job.canvas, job.cells)?.drawImage(reply.bitmap, 0, 0);
    }
    reply.bitmap.close();
  } else if (current) {
    heatmapColourings.worker++;
    sized(job.canvas, job.cells)?.putImageData(new ImageData(reply.pixels, job.cells, job.cells), 0, 0);
  }
  if (current) job.onDrawn();
}

/**
 * Colour `data` (cells × cells) onto `canvas` through `scale`; `onDrawn` runs once the image is on
 * the canvas. Returns a cancel function: after it, this job draws nothing.
 */
export function paintHeatmap(
  canvas: HTMLCanvasElement,
  data: Float32Array,
  cells: number,
  scale: HeatScaleSpec,
  onDrawn: () => void,
): () => void {
  const id = nextId++;
  newest.set(canvas, id);
  const cancel = () => {
    jobs.delete(id);
    if (newest.get(canvas) === id) newest.delete(canvas);
  };
  const job: Job = { canvas, cells, data, scale, onDrawn };
  const w = getWorker();
  if (!w) {
    paintHere(job);
    return cancel;
  }
  jobs.set(id, job);
  // a copy: the view stays with the page (tooltips, tables), the copy's buffer moves to the worker
  const copy = data.slice(0, cells * cells);
  const lut = scale.lut.slice();
  const request: HeatColourRequest = {
    id,
    data: copy,
    cells,
    scale: { mode: scale.mode, lo: scale.lo, hi: scale.hi, lut },
  };
  try {
    w.postMessage(request, [copy.buffer]);
  } catch {
    fail();
  }
  return cancel;
}
