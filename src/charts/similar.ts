/**
 * Props comparison for memoized charts: equal when every prop is identical, or is an array / plain
 * object whose entries are (recursively, a few levels deep) identical. Typed arrays and functions
 * compare by identity — they are the data, produced once per analysis result.
 */
function similar(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (depth === 0 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!similar(a[i], b[i], depth - 1)) return false;
    return true;
  }
  if (
    Array.isArray(b) ||
    Object.getPrototypeOf(a) !== Object.prototype ||
    Object.getPrototypeOf(b) !== Object.prototype
  )
    return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka)
    if (!similar((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth - 1)) return false;
  return true;
}

export function similarProps<P extends object>(prev: Readonly<P>, next: Readonly<P>): boolean {
  return similar(prev, next, 4);
}
