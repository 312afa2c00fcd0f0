/**
 * Dev script: the per-head table of the bundled models (src/core/trained) on one example — mean row
 * entropy, effective rank, FAVOR+ error at m = 64, 128, 256, 512 — beside Gaussian Q, K of the same n, d
 * and RMS, as a Markdown table (docs/trained-heads-measured.md). Run:
 *   npx rolldown scripts/trained-head-table.ts --file /tmp/head-table.mjs --platform node && node /tmp/head-table.mjs [example]
 */
import { DEFAULT_PARAMS } from '../src/core/default-params';
import { generateInputs } from '../src/core/inputs';
import { bundledHeads } from '../src/core/trained/bundle-weights';
import { BUNDLES } from '../src/core/trained/bundles';
import { TRAINED_MODELS } from '../src/core/trained/configs';
import { headStats } from '../src/core/trained/head-stats';
import { entryRms } from '../src/core/upload-check';

const example = Number(process.argv[2] ?? 0);
console.log(`example ${example}\n`);
console.log('| model | layer | head | RMS | H(A) nats (uniform) | eff. rank | FAVOR+ m=64 | m=128 | m=256 | m=512 |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const id of TRAINED_MODELS) {
  const causal = BUNDLES[id].config.model.causal;
  const heads = bundledHeads(id, example);
  heads.forEach((row, l) =>
    row.forEach((h, hd) => {
      const s = headStats(h, causal);
      const rms = entryRms(h.q, h.k);
      const f = (x: number) => x.toFixed(3);
      console.log(
        `| ${id} | ${l} | ${hd} | ${f(rms)} | ${f(s.entropy)} (${f(s.entropyUniform)}) | ${f(s.effectiveRank)} | ${s.favorError.map(f).join(' | ')} |`,
      );
      if (l === 0 && hd === 0) {
        const g = generateInputs({ ...DEFAULT_PARAMS, n: h.q.rows, d: h.q.cols, scale: rms, input: 'gaussian' });
        const gs = headStats(g, causal);
        console.log(
          `| Gaussian, same n, d, RMS | – | – | ${f(rms)} | ${f(gs.entropy)} (${f(gs.entropyUniform)}) | ${f(gs.effectiveRank)} | ${gs.favorError.map(f).join(' | ')} |`,
        );
      }
    }),
  );
}
