import { EngineError, isEngineError } from '../core/errors';
import type { SerializedEngineError } from './protocol';

/** Errors cross postMessage as plain objects; anything that is not an EngineError becomes one. */
export function serializeError(e: unknown): SerializedEngineError {
  if (isEngineError(e)) return { code: e.code, message: e.message, detail: e.detail };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: `unexpected engine failure: ${message}` };
}

export function deserializeError(s: SerializedEngineError): EngineError {
  return new EngineError(s.code, s.message, s.detail);
}
