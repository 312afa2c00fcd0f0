// A deliberately small browser-test harness: specs register tests; e2e/run.mjs runs them in order
// against one Vite dev server and one Chromium, failing any test whose page threw an uncaught error.
export const registry = [];

/**
 * test(name, fn, { timeout, webgpu, sharedPage }) — fn receives { page, baseUrl, appUrl, artifacts, newPage, loadModule, log }:
 * baseUrl serves the repo (dev server, for e2e/pages/*), appUrl the production build of the app;
 * loadModule('/src/…ts') evaluates one of the app's modules in Node (the dev server's ssrLoadModule),
 * so a spec can compare the page with the app's own data.
 * `page` is a fresh page (1280×800) whose uncaught errors fail the test — unless the test passes
 * `sharedPage: key`: consecutive tests of one spec with the same key share one page (kernel drivers,
 * whose pipelines take seconds to compile on SwiftShader; the spec's own open() skips the reload).
 */
export function test(name, fn, options = {}) {
  registry.push({
    name,
    fn,
    timeout: options.timeout ?? 120_000,
    webgpu: options.webgpu ?? true,
    sharedPage: options.sharedPage ?? null,
  });
}

/** Work a spec starts in the background once the production build is done (e.g. a second build). */
export const preparations = [];

/**
 * prepare(fn) — fn({ artifacts }) starts after the production build, while the kernel specs run,
 * if any test of the spec is selected; the spec's tests await its result themselves (memoized).
 */
export function prepare(fn) {
  preparations.push({ fn });
}
