import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// WGSL kernels are imported as strings with `?raw`, so the app needs no runtime fetches.
export default defineConfig({
  plugins: [react()],
  base: './',
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { port: 5173, strictPort: false },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
