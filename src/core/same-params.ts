import type { AttentionParams } from './types';

/**
 * Whether two parameter sets describe the same computation: every field equal. What a shown
 * result is compared with before it is presented as the current parameters' result.
 */
export function sameParams(a: AttentionParams, b: AttentionParams): boolean {
  return (Object.keys(a) as (keyof AttentionParams)[]).every((k) => a[k] === b[k]);
}
