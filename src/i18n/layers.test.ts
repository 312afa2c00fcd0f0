import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');

function imports(dir: string): { file: string; from: string }[] {
  return readdirSync(join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .flatMap((f) =>
      [...readFileSync(join(SRC, dir, f), 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map(
        (m) => ({ file: `${dir}/${f}`, from: m[1]! }),
      ),
    );
}

describe('where the texts may be read', () => {
  it('charts are leaves: they import nothing from app, store or i18n (labels come in as props)', () => {
    expect(imports('charts').some((i) => i.from === 'd3')).toBe(true); // the scan sees imports at all
    const bad = imports('charts').filter((i) => /(^|\/)(app|store|i18n)(\/|$)/.test(i.from));
    expect(bad).toEqual([]);
  });

  it('nothing below the UI (core, gpu, engine, store) imports i18n or app', () => {
    const bad = ['core', 'gpu', 'engine', 'store']
      .flatMap(imports)
      .filter((i) => /(^|\/)(app|i18n)(\/|$)/.test(i.from));
    expect(bad).toEqual([]);
  });
});
