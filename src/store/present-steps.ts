/**
 * The slides of lecture mode by name, in order: `step=` in a link takes a slide's number (1-based)
 * or its name (`?present&step=rank`), which keeps pointing at the same slide when slides are added.
 * src/present/story.ts holds each slide's scene and checks that its steps follow this list.
 */
export const PRESENT_STEP_IDS = [
  'quadratic',
  'kernel',
  'features',
  'orthogonal',
  'linear',
  'causal',
  'maps',
  'sparsity',
  'rank',
  'concentration',
  'speed',
  'learning',
  'trained',
] as const;
export type StepId = (typeof PRESENT_STEP_IDS)[number];

export const PRESENT_STEP_COUNT = PRESENT_STEP_IDS.length;

/** The 1-based slide a `step=` value names (a number in range or a slide name), else null. */
export function parseStep(
  raw: string,
): { ok: true; step: number } | { ok: false; reason: 'not-a-step' | 'out-of-range' } {
  const byName = PRESENT_STEP_IDS.indexOf(raw as StepId);
  if (byName >= 0) return { ok: true, step: byName + 1 };
  if (!/^\d{1,6}$/.test(raw)) return { ok: false, reason: 'not-a-step' };
  const n = Number(raw);
  return n >= 1 && n <= PRESENT_STEP_COUNT ? { ok: true, step: n } : { ok: false, reason: 'out-of-range' };
}
