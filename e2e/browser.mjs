// Finds the system Chromium and launches it with WebGPU on SwiftShader (headless, no network).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export function findBrowser() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH=${fromEnv} does not exist.`);
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  throw new Error(
    'No Chromium found. The browser tests need a real Chromium:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  or point CHROME_PATH at any Chromium/Chrome binary (CHROME_PATH=/path/to/chrome npm test).\n' +
      `Looked for: ${CANDIDATES.join(', ')}`,
  );
}

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-features=Vulkan'];

/** webgpu: true → SwiftShader WebGPU; false → a browser where WebGPU is switched off (CPU fallback). */
export async function launchBrowser({ webgpu = true } = {}) {
  const executablePath = findBrowser();
  const args = webgpu
    ? [...BASE_ARGS, ...WEBGPU_ARGS]
    : [...BASE_ARGS, '--disable-features=WebGPU,Vulkan', '--disable-gpu'];
  return chromium.launch({ executablePath, headless: true, args });
}
