/**
 * Source assembly shared by every dispatcher that compiles more than one file: the common helpers
 * (src/shaders/wgsl-helpers.wgsl: wg_linear, dot4) first, then the given parts in order.
 *
 * Assemble once, as a module constant beside the dispatcher: the pipeline cache keys on the label and
 * reads the source only on a miss, so a source assembled per dispatch (tens of KB of WGSL joined, and
 * the feature-map constants generated again) was thrown away every time — ~1.5 ms of each dense
 * analysis run.
 */
import helpers from '../shaders/wgsl-helpers.wgsl?raw';

/** The WGSL module source: the shared helpers followed by `parts`. */
export function shaderSource(...parts: string[]): string {
  return [helpers, ...parts].join('\n');
}
