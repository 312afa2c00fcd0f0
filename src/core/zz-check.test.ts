import { it } from 'vitest';
import { DEFAULT_PARAMS } from './default-params';
import { generateInputs } from './inputs';
import { mapContext, rawFeatures, scaleInputs } from './feature-maps';
import type { FeatureMapKind, ProjectionKind } from './types';
it('check', () => {
  for (const input of ['local', 'gaussian'] as const) for (const scale of [1, 1.5]) {
    const out: string[] = [];
    for (const map of ['positive', 'oprf'] as FeatureMapKind[]) {
      let se = 0, cnt = 0, seBig = 0, cntBig = 0;
      let A = 0;
      for (let fs = 1; fs <= 10; fs++) {
        const p = { ...DEFAULT_PARAMS, n: 128, input, scale, featureMap: map, projection: 'orthogonal-chi' as ProjectionKind, featureSeed: fs };
        const inp = generateInputs(p);
        const x = scaleInputs(inp.q), y = scaleInputs(inp.k);
        const ctx = mapContext(map, x, y); A = ctx.oprfA ?? 0;
        const fq = rawFeatures(map, x, inp.w, 'query', ctx), fk = rawFeatures(map, y, inp.w, 'key', ctx);
        const m = fq.cols, d = x.cols;
        for (let i = 0; i < 128; i++) for (let j = 0; j < 128; j++) {
          let e = 0; for (let r = 0; r < m; r++) e += fq.data[i*m+r]! * fk.data[j*m+r]!;
          let t = 0; for (let c = 0; c < d; c++) t += x.data[i*d+c]! * y.data[j*d+c]!;
          const k = Math.exp(t); const rel = ((e - k) / k) ** 2;
          se += rel; cnt++; if (t > 2) { seBig += rel; cntBig++; }
        }
      }
      out.push(`${map}: A=${A.toFixed(3)} mean rel sq err ${(se/cnt).toExponential(2)}, pairs with x·y>2: ${(seBig/Math.max(cntBig,1)).toExponential(2)} (${cntBig})`);
    }
    console.log(input, scale, out.join(' | '));
  }
});
