/**
 * The heatmap colouring worker: values and a colour scale in, an ImageBitmap out (the pixels
 * themselves where the worker has no createImageBitmap), so no heatmap is coloured on the main thread.
 */
import { colourCells } from './heat-colour';
import type { HeatColourReply, HeatColourRequest } from './heat-painter';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<HeatColourRequest>) => void) | null;
  postMessage(message: HeatColourReply, transfer: Transferable[]): void;
};

scope.onmessage = (e) => {
  const { id, data, cells, scale } = e.data;
  const px = colourCells(data, cells, scale);
  if (typeof createImageBitmap === 'function' && typeof ImageData === 'function') {
    createImageBitmap(new ImageData(px, cells, cells)).then(
      (bitmap) => scope.postMessage({ id, bitmap }, [bitmap]),
      () => scope.postMessage({ id, pixels: px }, [px.buffer]),
    );
  } else scope.postMessage({ id, pixels: px }, [px.buffer]);
};
