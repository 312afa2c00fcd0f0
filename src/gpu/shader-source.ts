/**
 * Source assembly shared by every dispatcher that compiles more than one file: the common helpers
 * (src/shaders/wgsl-helpers.wgsl: wg_linear, dot4) first, then the given parts in order.
 *
 * Dispatchers ask for their module's source on every dispatch (the pipeline cache keys on the label
 * and reads the source only on a miss), so each assembly is remembered by its parts: joining tens of
 * KB of WGSL per dispatch cost the dense analyses ~1.5 ms a run. The parts are module constants, so the
 * lookups hash each part once.
 */
import helpers from '../shaders/wgsl-helpers.wgsl?raw';

interface Assembly {
  next: Map<string, Assembly>;
  source?: string;
}
const assembled: Assembly = { next: new Map() };

/** The WGSL module source: the shared helpers followed by `parts`. */
export function shaderSource(...parts: string[]): string {
  let node = assembled;
  for (const part of parts) {
    let child = node.next.get(part);
    if (!child) node.next.set(part, (child = { next: new Map() }));
    node = child;
  }
  return (node.source ??= [helpers, ...parts].join('\n'));
}
