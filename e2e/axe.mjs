// axe-core for the browser tests. The built app ships a strict CSP (no inline scripts), so axe is
// injected through the DevTools protocol (page.evaluate of its source), which a page's CSP does not
// govern — a <script> tag would be blocked, as it should be for anything else.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Loads axe-core into the page (once per document). */
export async function injectAxe(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
}
