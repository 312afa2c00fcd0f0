/**
 * Source assembly shared by every dispatcher that compiles more than one file: the common helpers
 * (src/shaders/wgsl-helpers.wgsl: wg_linear, dot4) first, then the given parts in order.
 */
import helpers from '../shaders/wgsl-helpers.wgsl?raw';

/** The WGSL module source: the shared helpers followed by `parts`. */
export function shaderSource(...parts: string[]): string {
  return [helpers, ...parts].join('\n');
}
