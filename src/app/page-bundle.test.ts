/**
 * What the page's own bundle carries: the modules reachable from src/app/main.tsx by static,
 * non-type imports (workers, started by `new URL(…)`, and dynamic imports are chunks of their own).
 * The bundled models' weights (~110 kB of base64, a fifth of the page's gzipped script) are for the
 * engine worker's forward pass; the page reads only the models' configs. The Chinese strings load
 * when Chinese is asked for. KaTeX (~235 kB) is not in it: the formulas are prerendered.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLES } from '../core/trained/bundles';

const SRC = join(__dirname, '..');
// static imports and re-exports with a value part; `import type` / `export type` are erased
const STATIC = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm;

function resolve(fromFile: string, spec: string): string {
  const base = join(dirname(fromFile), spec);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
    (f) => /\.tsx?$/.test(f) && existsSync(f),
  );
  if (!found) throw new Error(`${relative(SRC, fromFile)}: cannot resolve ${spec}`);
  return found;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of readFileSync(f, 'utf8').matchAll(STATIC)) {
      const spec = m[1]!;
      // styles, fonts and shader sources (?url, ?raw) are assets, not modules
      if (/\.(css|woff2)(\?|$)|\?(url|raw)$/.test(spec)) continue;
      stack.push(resolve(f, spec));
    }
  }
  return new Set([...seen].map((f) => relative(SRC, f).split('\\').join('/')));
}

describe('the page bundle', () => {
  const page = reachable(join(SRC, 'app', 'main.tsx'));

  it('is the page: the walk reaches the store, the panels and the bundled models’ configs', () => {
    expect(page.has('store/store.ts')).toBe(true);
    expect(page.has('panels/MainComparison.tsx')).toBe(true);
    expect(page.has('core/trained/bundles.ts')).toBe(true);
  });

  it('does not carry the bundled models’ weights: no module of it imports a generated bundle’s WEIGHTS, and the BUNDLE it reads has none', () => {
    const weightImports = [...page].filter((f) =>
      /import\s*\{[^}]*\bWEIGHTS\b[^}]*\}\s*from\s*['"]\.\/bundle-/.test(readFileSync(join(SRC, f), 'utf8')),
    );
    expect(weightImports).toEqual([]);
    expect([...page].filter((f) => f.includes('bundle-weights'))).toEqual([]);
    // the configs the page reads are weightless (before the split, BUNDLE carried its base64 as `data`)
    for (const b of Object.values(BUNDLES)) {
      expect(Object.keys(b)).not.toContain('data');
      expect(JSON.stringify(b).length).toBeLessThan(20_000);
    }
  });

  it('does not carry the Chinese strings (i18n/zh.ts, training-zh.ts) or their formulas: they load when Chinese is first asked for', () => {
    expect([...page].filter((f) => /^i18n\/.*zh\.ts$/.test(f))).toEqual([]);
    expect(page.has('i18n/en.ts')).toBe(true);
  });

  it('does not carry KaTeX: the formulas are prerendered (i18n/formulas.ts), KaTeX is only imported dynamically', () => {
    const katexImports = [...page].filter((f) =>
      /^\s*(?:import|export)\s+(?!type\s)[^;]*?from\s*['"]katex['"]/m.test(readFileSync(join(SRC, f), 'utf8')),
    );
    expect(katexImports).toEqual([]);
    expect(page.has('i18n/formulas-generated-en.ts')).toBe(true);
    expect(readFileSync(join(SRC, 'ui', 'Formula.tsx'), 'utf8')).toMatch(/import\('katex'\)/);
  });

  it('the engine worker does carry them', () => {
    expect(reachable(join(SRC, 'engine', 'engine-worker.ts')).has('core/trained/bundle-weights.ts')).toBe(true);
  });
});
