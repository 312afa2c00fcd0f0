import { describe, expect, it } from 'vitest';
import { exactTileConfig } from './exact-attention';
import { viewPlan } from './attention-stats';
import { viewGeometry } from '../core/matrix-view';

describe('exactTileConfig', () => {
  it('fits every d in 1..256 into 16 KiB and 32 KiB of workgroup memory with ≤ 16 vec4 accumulators', () => {
    for (const storage of [16_384, 32_768]) {
      for (let d = 1; d <= 256; d++) {
        const c = exactTileConfig(d, storage);
        const d4 = Math.ceil(d / 4);
        const tg = c.wg / (c.br / 4);
        expect(c.bytes).toBeLessThanOrEqual(storage);
        expect(c.br % 4).toBe(0);
        expect(c.bc).toBe(c.rn * tg);
        expect(c.nch * c.dc4).toBeGreaterThanOrEqual(d4);
        expect(4 * c.nch * Math.ceil(c.dc4 / tg)).toBeLessThanOrEqual(16);
      }
    }
  });
  it('streams whole rows (one chunk) for d ≤ 128 and keeps Q resident at d ≤ 32 within 16 KiB', () => {
    for (const d of [1, 3, 16, 32, 64, 100, 128]) expect(exactTileConfig(d, 16_384).nch).toBe(1);
    for (const d of [1, 16, 32]) expect(exactTileConfig(d, 16_384).qShared).toBe(true);
  });
});

describe('viewPlan', () => {
  it('matches core viewGeometry and groups cells so a workgroup spans at most 32 rows when b ≤ 32', () => {
    expect(viewPlan(1, 8)).toEqual({ cells: 1, block: 1, gc: 32 });
    expect(viewPlan(1000, 512)).toEqual({ cells: 500, block: 2, gc: 16 });
    expect(viewPlan(257, 64)).toEqual({ cells: 52, block: 5, gc: 6 });
    expect(viewPlan(65_536, 512)).toEqual({ cells: 512, block: 128, gc: 1 });
    // cells and block are the CPU twin's, for every n up to 4096 and the usual view sides
    for (const cells of [1, 8, 64, 200, 512]) {
      for (let n = 1; n <= 4096; n += n < 64 ? 1 : 37) {
        const plan = viewPlan(n, cells);
        const geo = viewGeometry(n, cells);
        expect([n, cells, plan.cells, plan.block]).toEqual([n, cells, geo.cells, geo.block]);
      }
    }
  });
});
