import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { contentSecurityPolicy, singleFileExtras } from './build/offline-plugins.ts';

// WGSL kernels are imported as strings with `?raw`, so the app needs no runtime fetches.
// `vite build --mode single` (npm run build:single) writes one self-contained dist-single/index.html.
export default defineConfig(({ mode }) => {
  const single = mode === 'single';
  return {
    plugins: single
      ? [react(), singleFileExtras('public'), viteSingleFile(), contentSecurityPolicy('single')]
      : [react(), contentSecurityPolicy('served')],
    base: './',
    // A page opened from file:// has an opaque origin: Chrome refuses module workers from its blob:
    // URLs but runs classic ones, so the single-file build bundles its workers as IIFE.
    worker: { format: single ? 'iife' : 'es' },
    build: single
      ? { target: 'es2022', sourcemap: false, outDir: 'dist-single', copyPublicDir: false }
      : { target: 'es2022', sourcemap: true },
    server: { port: 5173, strictPort: false },
    test: {
      include: ['src/**/*.test.ts'],
      environment: 'node',
      // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where
      // the main process mostly waits. Every core halves the unit-test time there (131 s → 63 s).
      maxWorkers: availableParallelism(),
      // a hang guard, not a speed check: with both cores in use, on a machine that runs something
      // else too, tests of a few seconds took past Vitest's 5 s default (errorVsM, 5.3 s)
      testTimeout: 60_000,
    },
  };
});
