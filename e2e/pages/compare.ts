// Error summaries shared by the kernel drivers (e2e/pages/*.ts): one output's error (Err) and the
// worst of several (worst: NaN counts as ∞, ok only when every field is ok). maxAbs = max
// |gpu − cpu|; maxRel = maxAbs / max |cpu| (normwise); each driver's compare fills them.

export interface Err {
  maxAbs: number;
  maxRel: number;
  ok: boolean;
}

export function worst(errs: Record<string, Err>): Err & { fields: Record<string, Err> } {
  const vals = Object.values(errs);
  return {
    maxAbs: Math.max(0, ...vals.map((e) => (Number.isNaN(e.maxAbs) ? Infinity : e.maxAbs))),
    maxRel: Math.max(0, ...vals.map((e) => (Number.isNaN(e.maxRel) ? Infinity : e.maxRel))),
    ok: vals.every((e) => e.ok),
    fields: errs,
  };
}
