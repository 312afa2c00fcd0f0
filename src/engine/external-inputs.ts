/**
 * Uploaded Q, K (V) on the analysis side. An analysis payload may carry `external: { q, k, v? }`
 * (src/store/analyses.ts `withUpload` puts it there); the ops then compute on those matrices
 * instead of regenerating inputs from the seed. Only what was not uploaded is generated: V (the
 * seeded Gaussian) when absent, and W, which always comes from the feature seed.
 */
import { EngineError } from '../core/errors';
import { projectionFor, valuesFor } from '../core/inputs';
import { firstRows } from '../core/sweeps';
import { entryRms } from '../core/upload-check';
import type { AttentionInputs, AttentionParams, Matrix } from '../core/types';
import type { ComputeRequest } from './protocol';

/** Root mean square of all uploaded Q and K entries: the data's norm scale. */
export const externalRms = (ext: ExternalInputs): number => entryRms(ext.q, ext.k);

export type ExternalInputs = NonNullable<ComputeRequest['external']>;

function isMatrix(m: unknown): m is Matrix {
  const x = m as Matrix | null;
  return (
    !!x &&
    typeof x === 'object' &&
    Number.isInteger(x.rows) &&
    Number.isInteger(x.cols) &&
    x.rows > 0 &&
    x.cols > 0 &&
    x.data instanceof Float32Array &&
    x.data.length === x.rows * x.cols
  );
}

/** The payload's uploaded matrices (checked to be well-formed matrices), or null. */
export function readExternal(payload: unknown): ExternalInputs | null {
  const ext = (payload as { external?: unknown } | null)?.external as Partial<ExternalInputs> | undefined;
  if (ext === undefined || ext === null) return null;
  if (!isMatrix(ext.q) || !isMatrix(ext.k) || (ext.v !== undefined && !isMatrix(ext.v))) {
    throw new EngineError('shape-mismatch', 'uploaded inputs in the analysis payload are not n×d matrices');
  }
  return ext as ExternalInputs;
}

/**
 * Inputs of `p` on the uploaded Q, K (V) restricted to their first `nUse` positions (sweeps use a
 * prefix, as they do with generated inputs), with W from `p`'s feature seed.
 */
export function externalInputs(p: AttentionParams, ext: ExternalInputs, nUse = p.n): AttentionInputs {
  for (const [name, m] of [
    ['Q', ext.q],
    ['K', ext.k],
    ['V', ext.v],
  ] as const) {
    if (m && (m.cols !== p.d || m.rows < nUse)) {
      throw new EngineError(
        'shape-mismatch',
        `uploaded ${name} is ${m.rows}×${m.cols}; this analysis needs ${nUse}×${p.d}`,
      );
    }
  }
  const pn = { ...p, n: nUse };
  return {
    q: firstRows(ext.q, nUse),
    k: firstRows(ext.k, nUse),
    v: ext.v ? firstRows(ext.v, nUse) : valuesFor(pn),
    w: projectionFor(pn),
  };
}

/** Q and K multiplied by `factor` (the norm sweep rescales uploaded data to each grid scale). */
export function rescaledInputs(inputs: AttentionInputs, factor: number): AttentionInputs {
  const times = (m: Matrix): Matrix => ({ rows: m.rows, cols: m.cols, data: m.data.map((x) => x * factor) });
  return { ...inputs, q: times(inputs.q), k: times(inputs.k) };
}
