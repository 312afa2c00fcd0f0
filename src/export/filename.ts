/**
 * File names of exports: what the file holds and the parameters it was made with, so a folder of
 * downloads stays legible (`performer-A-exact-n256-d16-m64-positive-s0.5.png`).
 */
import type { AttentionParams } from '../core/types';

/** Lower-case ASCII words joined by '-' (anything else dropped); case is kept where it carries meaning (A vs a). */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-');
}

export function exportFileName(
  what: string,
  p: Pick<AttentionParams, 'n' | 'd' | 'm' | 'featureMap' | 'scale' | 'causal'>,
  ext: string,
): string {
  const parts = ['performer', slug(what), `n${p.n}`, `d${p.d}`, `m${p.m}`, p.featureMap, `s${p.scale}`];
  if (p.causal) parts.push('causal');
  return `${parts.filter(Boolean).join('-')}.${ext}`;
}
