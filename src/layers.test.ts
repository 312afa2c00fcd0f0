/**
 * The layer order of ARCHITECTURE.md, checked on every import in src: a module imports only from its
 * own folder and from folders of a lower layer. Folders in one layer are siblings and do not import
 * each other (what two of them share goes one layer down, e.g. into src/ui).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname);

/** Lowest first; index = layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['shaders'],
  ['gpu'],
  ['engine'],
  ['store'],
  ['export', 'embed'],
  ['charts'],
  ['i18n'],
  ['ui'],
  ['panels', 'controls', 'present'],
  ['app'],
];

/** Narrower than their layer: charts are leaves that take their labels as props. */
const MAY_ONLY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  charts: ['core', 'export'],
};

const layerOf = new Map(LAYERS.flatMap((dirs, i) => dirs.map((d) => [d, i] as const)));

interface Edge {
  file: string;
  from: string;
  /** Top folder under src of the importing file and of the target; null when the target is outside src. */
  dir: string;
  target: string | null;
}

const IMPORT = /(?:^\s*(?:import|export)[^'"]*?from\s*|^\s*import\s*|\bimport\s*\(\s*|new URL\(\s*)['"]([^'"]+)['"]/gm;

function edges(): Edge[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => /\.(ts|tsx)$/.test(f) && f.includes('/'))
    .flatMap((f) =>
      [...readFileSync(join(SRC, f), 'utf8').matchAll(IMPORT)]
        .map((m) => m[1]!)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => {
          const resolved = posix.normalize(posix.join(posix.dirname(f), spec));
          return {
            file: f,
            from: spec,
            dir: f.split('/')[0]!,
            target: resolved.startsWith('..') ? null : resolved.split('/')[0]!,
          };
        }),
    );
}

/** Why an import breaks the order, or null when it is allowed. */
export function violation(dir: string, target: string | null): string | null {
  if (target === null || target === dir) return null;
  const own = layerOf.get(dir);
  const theirs = layerOf.get(target);
  if (own === undefined) return `src/${dir} has no layer`;
  if (theirs === undefined) return `src/${target} has no layer`;
  const only = MAY_ONLY_IMPORT[dir];
  if (only && !only.includes(target)) return `src/${dir} may import only ${only.join(', ')}`;
  if (theirs > own) return `upward: layer ${own} imports layer ${theirs}`;
  if (theirs === own) return `siblings in layer ${own}`;
  return null;
}

describe('layers', () => {
  const all = edges();

  it('the scan sees the imports', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((e) => e.dir === 'engine' && e.from === './engine-worker.ts')).toBe(true); // new URL(…)
    expect(all.some((e) => e.dir === 'gpu' && e.target === 'shaders')).toBe(true); // ?raw WGSL
  });

  it('every folder under src has a layer', () => {
    const dirs = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(dirs.filter((d) => !layerOf.has(d))).toEqual([]);
  });

  it('no import goes up or sideways', () => {
    const bad = all
      .map((e) => ({ ...e, why: violation(e.dir, e.target) }))
      .filter((e) => e.why !== null)
      .map((e) => `${e.file}: ${e.from} (${e.why})`);
    expect(bad).toEqual([]);
  });

  it('the rule itself: upward, sideways and a chart reading the store fail', () => {
    expect(violation('store', 'ui')).toMatch(/upward/);
    expect(violation('core', 'gpu')).toMatch(/upward/);
    expect(violation('panels', 'app')).toMatch(/upward/);
    expect(violation('present', 'panels')).toMatch(/siblings/);
    expect(violation('charts', 'store')).toMatch(/only/);
    expect(violation('charts', 'i18n')).toMatch(/only/);
    expect(violation('app', 'core')).toBeNull();
  });
});
