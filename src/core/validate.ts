/**
 * Input validation for every engine entry point: bad parameters or inputs throw a typed
 * `EngineError` (never a crash, never a silent NaN heatmap). Codes:
 *   invalid-size     n, d, m zero / negative / fractional / NaN (m = 0 only for maps with a
 *                    projection), or an unknown enum value / non-finite seed or scale
 *   exceeds-limit    beyond LIMITS (n, d, m, view cells), or a requested row index ≥ n
 *   shape-mismatch   Q, K, V, W that do not fit together (or data length ≠ rows·cols)
 *   non-finite-input NaN / ±Inf in Q, K, V or W — the detail names the matrix and first bad index
 */
import type { AttentionJob } from './attention-job';
import { EngineError } from './errors';
import { featureDim, usesProjection } from './feature-maps';
import { LIMITS } from './limits';
import { firstNonFinite } from './matrix';
import {
  FEATURE_MAPS,
  INPUT_KINDS,
  PROJECTIONS,
  type AttentionParams,
  type FeatureMapKind,
  type Matrix,
} from './types';

function checkSize(name: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new EngineError('invalid-size', `${name} must be an integer ≥ ${min}, got ${String(value)}`, { name, value });
  }
  if (value > max) {
    throw new EngineError('exceeds-limit', `${name} = ${value} exceeds the limit ${max}`, { name, value, limit: max });
  }
}

function checkEnum<T extends string>(name: string, value: unknown, allowed: readonly T[]): void {
  if (!allowed.includes(value as T)) {
    throw new EngineError('invalid-size', `${name} must be one of ${allowed.join(', ')}, got ${String(value)}`, {
      name,
      value,
    });
  }
}

/** Sizes: n ∈ [1, nMax], d ∈ [1, dMax], m ∈ [1, mMax] (m ∈ [0, mMax] for maps without projection). */
function checkSizes(n: unknown, d: unknown, m: unknown, featureMap: FeatureMapKind): void {
  checkSize('n', n, LIMITS.nMin, LIMITS.nMax);
  checkSize('d', d, LIMITS.dMin, LIMITS.dMax);
  checkSize('m', m, usesProjection(featureMap) ? LIMITS.mMin : 0, LIMITS.mMax);
  const mp = featureDim(featureMap, m as number, d as number);
  if (mp > LIMITS.featureDimMax) {
    throw new EngineError(
      'exceeds-limit',
      `the ${featureMap} map has ${mp} features at d = ${String(d)} (1 + d + d²), the limit is ${LIMITS.featureDimMax} (d ≤ ${taylor2MaxD()})`,
      { name: 'featureDim', value: mp, limit: LIMITS.featureDimMax },
    );
  }
}

/** Largest d whose second-order Taylor map fits LIMITS.featureDimMax (1 + d + d² ≤ 2048: 44). */
export function taylor2MaxD(): number {
  let d = 1;
  while (1 + (d + 1) + (d + 1) ** 2 <= LIMITS.featureDimMax) d++;
  return d;
}

export function validateParams(p: AttentionParams): void {
  if (typeof p !== 'object' || p === null) throw new EngineError('invalid-size', 'parameters missing');
  checkEnum('featureMap', p.featureMap, FEATURE_MAPS);
  checkEnum('projection', p.projection, PROJECTIONS);
  checkEnum('input', p.input, INPUT_KINDS);
  checkSizes(p.n, p.d, p.m, p.featureMap);
  for (const name of ['seed', 'featureSeed', 'scale'] as const) {
    const v = p[name];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new EngineError('invalid-size', `${name} must be a finite number, got ${String(v)}`, { name, value: v });
    }
  }
  if (p.scale < 0)
    throw new EngineError('invalid-size', `scale must be ≥ 0, got ${p.scale}`, { name: 'scale', value: p.scale });
  if (typeof p.causal !== 'boolean') throw new EngineError('invalid-size', 'causal must be a boolean');
}

function checkMatrix(name: string, m: Matrix, rows: number, cols: number): void {
  if (!m || !(m.data instanceof Float32Array))
    throw new EngineError('shape-mismatch', `${name} is not a matrix`, { matrix: name });
  if (m.rows !== rows || m.cols !== cols || m.data.length !== rows * cols) {
    throw new EngineError(
      'shape-mismatch',
      `${name} is ${m.rows}×${m.cols} (${m.data.length} values), expected ${rows}×${cols}`,
      {
        matrix: name,
        rows: m.rows,
        cols: m.cols,
        expectedRows: rows,
        expectedCols: cols,
      },
    );
  }
}

function checkFinite(name: string, m: Matrix): void {
  const idx = firstNonFinite(m.data);
  if (idx >= 0) {
    const row = Math.floor(idx / m.cols);
    const col = idx - row * m.cols;
    throw new EngineError('non-finite-input', `${name}[${row}, ${col}] is ${m.data[idx]}`, {
      matrix: name,
      index: idx,
      row,
      col,
    });
  }
}

export function validateJob(job: AttentionJob): void {
  if (typeof job !== 'object' || job === null || !job.inputs)
    throw new EngineError('shape-mismatch', 'job has no inputs');
  checkEnum('featureMap', job.featureMap, FEATURE_MAPS);
  const { q, k, v, w } = job.inputs;
  if (!q || !k || !v || !w) throw new EngineError('shape-mismatch', 'job needs Q, K, V and W');
  const n = q.rows;
  const d = q.cols;
  checkSizes(n, d, w.rows, job.featureMap);
  checkMatrix('Q', q, n, d);
  checkMatrix('K', k, n, d);
  checkMatrix('V', v, n, d);
  // W's width must match d; a map without projection accepts (and ignores) any W with 0 rows.
  if (w.rows > 0 || usesProjection(job.featureMap)) checkMatrix('W', w, w.rows, d);
  else checkMatrix('W', w, 0, w.cols);

  checkSize('viewCells', job.viewCells, 0, LIMITS.viewCellsMax);
  if (!Array.isArray(job.rows)) throw new EngineError('invalid-size', 'rows must be an array of row indices');
  for (const r of job.rows) {
    if (typeof r !== 'number' || !Number.isInteger(r) || r < 0) {
      throw new EngineError('invalid-size', `row index must be an integer ≥ 0, got ${String(r)}`, {
        name: 'rows',
        value: r,
      });
    }
    if (r >= n)
      throw new EngineError('exceeds-limit', `row index ${r} ≥ n = ${n}`, { name: 'rows', value: r, limit: n - 1 });
  }

  checkFinite('Q', q);
  checkFinite('K', k);
  checkFinite('V', v);
  checkFinite('W', w);
}
