/**
 * Typed engine errors. Bad input never crashes and never yields a silent NaN heatmap: every entry
 * point validates and throws an `EngineError` whose `code` the UI maps to a message while keeping
 * the previous result on screen.
 */
export type EngineErrorCode =
  | 'invalid-size' // n, d or m is 0, negative, fractional or not a number
  | 'exceeds-limit' // larger than the engine's or the device's limits
  | 'non-finite-input' // NaN or ±Infinity in Q, K, V or W
  | 'shape-mismatch' // matrices that do not fit together
  | 'non-finite-result' // the computation itself overflowed (e.g. trig features at large norms)
  | 'device-lost' // the GPU device was lost mid-computation
  | 'gpu-validation' // a WebGPU validation / out-of-memory error captured by an error scope
  | 'cancelled' // superseded by a newer request
  | 'internal'; // a bug: anything unexpected, reported rather than swallowed

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly detail: Record<string, unknown> | undefined;
  constructor(code: EngineErrorCode, message: string, detail?: Record<string, unknown>) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.detail = detail;
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof Error && (e as { name?: string }).name === 'EngineError' && 'code' in e;
}

/**
 * Codes the same request meets again however often it runs: the parameters, the inputs or the
 * device's limits decide them. Re-running cannot help; changing a parameter can.
 */
const DETERMINED: ReadonlySet<string> = new Set<EngineErrorCode>([
  'invalid-size',
  'exceeds-limit',
  'non-finite-input',
  'shape-mismatch',
  'non-finite-result',
]);

/** Whether running the same request again could end otherwise (a lost device, a validation error, a bug). */
export const retryCanHelp = (code: string): boolean => !DETERMINED.has(code);
