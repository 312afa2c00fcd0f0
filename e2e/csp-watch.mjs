// Records a page's Content-Security-Policy violations (the document's securitypolicyviolation
// events), its console errors and every request URL of its context. Shared by offline.spec.mjs
// (the policy itself, the single-file build) and app.spec.mjs (the served build on WebGPU).

/** Call before the page navigates: the init script must be in place when the document starts. */
export async function watchCsp(page, context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  const requests = [];
  const consoleErrors = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  return {
    requests,
    consoleErrors,
    /** the console errors that are CSP refusals */
    cspConsoleErrors: () => consoleErrors.filter((t) => /Content Security Policy|Refused to/i.test(t)),
    violations: () => page.evaluate(() => window.__csp),
  };
}
