// Every step of "Adding a feature map" (ARCHITECTURE.md) for every map of FEATURE_MAPS: the steps
// TypeScript does not force (the WGSL case, the kernel-vs-twin list, distinct palette entries,
// strings that say something) fail here when a map lacks one. An app-level test: it reads the
// records, the shaders, the strings, the palette and the browser specs together.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAP_COLORS, MAP_DASH } from '../charts/palette';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { featureDim, keyFeatures, mapContext, queryFeatures, scaleInputs, usesProjection } from '../core/feature-maps';
import { matrix } from '../core/matrix';
import { randomProjection } from '../core/projections';
import { createRng } from '../core/rng';
import { FEATURE_MAPS } from '../core/types';
import { featureMapWgsl, FEATURE_MAP_CODE, wgslMapConstant } from '../gpu/feature-map-wgsl';
import { en } from '../i18n/en';
import { zh } from '../i18n/zh';
import { CITED, REFERENCES } from '../i18n/references';

const ROOT = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

describe('every feature map has every step of "Adding a feature map"', () => {
  it('one record per map, in FEATURE_MAPS order, with distinct WGSL names and codes', () => {
    expect(Object.keys(FEATURE_MAP_SPECS).sort()).toEqual([...FEATURE_MAPS].sort());
    expect(new Set(FEATURE_MAPS).size).toBe(FEATURE_MAPS.length);
    const names = FEATURE_MAPS.map((k) => FEATURE_MAP_SPECS[k].wgsl);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Z][A-Z0-9_]*$/);
    expect(FEATURE_MAPS.map((k) => FEATURE_MAP_CODE[k])).toEqual(FEATURE_MAPS.map((_, i) => i));
  });

  it('the generated WGSL declares each map constant; the shared snippet has no hand-listed ones', () => {
    const generated = featureMapWgsl();
    const common = read('src/shaders/feature-map-common.wgsl');
    for (const k of FEATURE_MAPS) {
      expect(generated).toContain(`const ${wgslMapConstant(k)}: u32 = ${FEATURE_MAP_CODE[k]}u;`);
      expect(common, `${k}: declared by hand`).not.toMatch(new RegExp(`const ${wgslMapConstant(k)}\\b`));
    }
    for (const f of ['fm_uses_w', 'fm_uses_norm', 'fm_has_stats', 'fm_row_softmax']) {
      expect(generated).toContain(`fn ${f}()`);
      expect(common, `${f}: defined by hand`).not.toContain(`fn ${f}()`);
    }
  });

  it('each map has its `case FM_<NAME>` in the feature switch, and an unknown code is NaN', () => {
    const common = read('src/shaders/feature-map-common.wgsl');
    for (const k of FEATURE_MAPS) {
      expect(common, `${k}: no case ${wgslMapConstant(k)}`).toMatch(new RegExp(`case ${wgslMapConstant(k)}\\s*:`));
    }
    expect(common).not.toMatch(/case \d+u\s*:/); // codes only by name
    const fmFeature = common.slice(common.indexOf('fn fm_feature('), common.indexOf('fn fm_nan('));
    expect(fmFeature).toMatch(/default:\s*\{\s*return fm_nan\(\);/);
  });

  it('the CPU twin computes each map (finite features of the record dimension, both sides)', () => {
    const d = 5;
    const m = 6;
    const x = scaleInputs(matrix(7, d, createRng(1).fillNormal(new Float32Array(7 * d), 0.5)));
    const y = scaleInputs(matrix(7, d, createRng(2).fillNormal(new Float32Array(7 * d), 0.5)));
    const w = randomProjection('orthogonal-chi', m, d, createRng(3));
    for (const k of FEATURE_MAPS) {
      const ww = usesProjection(k) ? w : matrix(0, d);
      for (const causal of [false, true]) {
        const ctx = mapContext(k, x, y, causal);
        for (const f of [queryFeatures(k, x, ww, 'ref', ctx), keyFeatures(k, y, ww, 'ref', ctx)]) {
          expect(f.cols, k).toBe(featureDim(k, m, d));
          expect(f.rows, k).toBe(7);
          expect(f.data.every(Number.isFinite), k).toBe(true);
        }
      }
    }
  });

  it('en and zh name each map, give its formula, and each record cites a listed reference', () => {
    for (const t of [en, zh]) {
      for (const k of FEATURE_MAPS) {
        expect(t.names.maps[k], k).toMatch(/\S/);
        expect(t.controls.mapNames[k], k).toMatch(/\S/);
        expect(t.names.mapTex[k], k).toMatch(/\S/);
      }
    }
    for (const k of FEATURE_MAPS) expect(REFERENCES[CITED[FEATURE_MAP_SPECS[k].cite]], k).toBeDefined();
  });

  it('each map has a palette entry, and no two maps share colour and dash', () => {
    const keys = FEATURE_MAPS.map((k) => `${MAP_COLORS[k]}|${MAP_DASH[k] ?? 'solid'}`);
    for (const k of FEATURE_MAPS) expect(MAP_COLORS[k], k).toMatch(/\S/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('the kernel-vs-twin specs cover each map (performer kernels by name, the backend and causality from the list)', () => {
    const performer = read('e2e/performer-kernels.spec.mjs');
    for (const k of FEATURE_MAPS) expect(performer, `${k}: not in e2e/performer-kernels.spec.mjs`).toContain(`'${k}'`);
    // these iterate the page's copy of FEATURE_MAPS (the exact-kernels driver's `lists`, in exact-causality.ts)
    expect(read('e2e/exact-kernels.spec.mjs')).toContain('window.exactKernels.lists()');
    expect(read('e2e/exact-kernels.spec.mjs')).toContain('window.exactKernels.causality(');
    expect(read('e2e/pages/exact-causality.ts')).toMatch(/maps: \[\.\.\.FEATURE_MAPS\]/);
  });
});
