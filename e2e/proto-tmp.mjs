import { createServer } from 'vite';
import { launchBrowser } from '/work/main/e2e/browser.mjs';
const server = await createServer({ root: '/work/main', logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const baseUrl = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser();
const page = await browser.newPage();
page.on('console', (m) => console.log('[console]', m.text()));
page.on('pageerror', (e) => console.log('[pageerror]', e));
await page.goto(`${baseUrl}/e2e/pages/exact-kernels.html`);
await page.waitForFunction(() => window.exactKernels, null, { timeout: 60000 });
const cases = JSON.parse(process.argv[2]);
for (const c of cases) {
  const r = await page.evaluate((c) => window.exactKernels.exact(...c).catch(e => String(e)), c);
  console.log(JSON.stringify(c), JSON.stringify(r));
}
await browser.close(); await server.close();
