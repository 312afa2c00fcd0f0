/**
 * Build-time plugins for shipping the app as static files (see README "Offline / deploy"):
 *
 * - `contentSecurityPolicy(mode)`: writes a Content-Security-Policy `<meta>` into the built
 *   index.html (static hosts cannot set headers). Build only — Vite's dev server needs inline
 *   scripts and a WebSocket for HMR. Every inline `<script>`/`<style>` left in the final HTML is
 *   allowed by its sha256 hash, never by 'unsafe-inline', so the single-file build (whose whole app
 *   is inline) gets a policy as strict as the served one.
 * - `singleFileExtras()`: what `vite-plugin-singlefile` does not do for `npm run build:single`:
 *   the two workers become Blob workers (`?worker&inline`; vite.config.ts bundles them as IIFE
 *   in this mode, since Chrome refuses module workers from a file:// page's opaque origin) because
 *   a page opened from file:// cannot load a worker by URL; KaTeX's fonts are reduced to woff2 (every browser that
 *   runs this app reads woff2; the woff/ttf fallbacks would triple the inlined size); the icons
 *   become data: URLs; the "serve this folder" notice for file:// is dropped (this file works there).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

export type OfflineBuild = 'served' | 'single';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Inline code blocks of the final HTML, exactly as the browser will hash them. */
function inlineBlocks(html: string, tag: 'script' | 'style'): string[] {
  const re = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi');
  const out: string[] = [];
  for (const m of html.matchAll(re)) {
    const attrs = m[1] ?? '';
    if (tag === 'script' && /\ssrc\s*=/.test(attrs)) continue;
    if (tag === 'script' && /type\s*=\s*["']?application\/(ld\+)?json/i.test(attrs)) continue;
    out.push(m[2]!);
  }
  return out;
}

/** The policy for one build, given its final HTML. */
export function policyFor(build: OfflineBuild, html: string): string {
  const scripts = [...new Set(inlineBlocks(html, 'script').map(sha256))];
  const styles = [...new Set(inlineBlocks(html, 'style').map(sha256))];
  // KaTeX writes style="…" attributes into the HTML it renders (inserted as markup), which CSP
  // treats as inline style: style-src-attr must allow them. <style> elements stay restricted
  // (style-src-elem). Browsers without the -elem/-attr directives fall back to style-src.
  const self = build === 'served' ? ["'self'"] : [];
  const directives: [string, string[]][] = [
    ['default-src', build === 'served' ? ["'self'"] : ["'none'"]],
    ['script-src', [...self, ...scripts]],
    ['style-src', [...self, "'unsafe-inline'"]],
    ['style-src-elem', [...self, ...styles]],
    ['style-src-attr', ["'unsafe-inline'"]],
    ['img-src', [...self, 'data:', 'blob:']],
    ['font-src', [...self, 'data:']],
    ['worker-src', build === 'served' ? ["'self'", 'blob:'] : ['blob:', 'data:']],
    ['connect-src', build === 'served' ? ["'self'"] : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  return directives
    .filter(([, sources]) => sources.length > 0)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

function insertPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  // Before every script and style, so it governs all of them.
  return html.replace(/(<meta charset=[^>]*>)/i, `$1\n    ${meta}`);
}

export function contentSecurityPolicy(build: OfflineBuild): Plugin {
  return {
    name: 'performer:csp',
    apply: 'build',
    enforce: 'post',
    // After vite-plugin-singlefile's generateBundle (also 'post', listed before this plugin), so
    // the hashes cover the inlined app.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue;
          const html = String(file.source);
          if (/http-equiv="Content-Security-Policy"/i.test(html)) this.error(`${file.fileName} already has a CSP meta`);
          file.source = insertPolicy(html, policyFor(build, html));
        }
      },
    },
  };
}

const WORKER_URL = /new\s+Worker\(\s*new\s+URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)\s*,?/g;
const KATEX_FALLBACK_FONTS =
  /,\s*url\([^)]*\.woff\)\s*format\(["']woff["']\)|,\s*url\([^)]*\.ttf\)\s*format\(["']truetype["']\)/g;

export function singleFileExtras(publicDir: string): Plugin {
  const dataUrl = (file: string, type: string) =>
    `data:${type};base64,${readFileSync(join(publicDir, file)).toString('base64')}`;
  return {
    name: 'performer:single-file-extras',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/katex/') && id.endsWith('.css')) {
        return { code: code.replace(KATEX_FALLBACK_FONTS, ''), map: null };
      }
      if (id.includes('/node_modules/') || !/\.tsx?$/.test(id) || !WORKER_URL.test(code)) return null;
      WORKER_URL.lastIndex = 0;
      const imports: string[] = [];
      const out = code.replace(WORKER_URL, (_m, _q: string, path: string) => {
        const name = `__InlineWorker${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(`${path}?worker&inline`)};`);
        return `new ${name}(`;
      });
      return { code: `${imports.join('\n')}\n${out}`, map: null };
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        return html
          .replace(/<!-- file-notice -->[\s\S]*?<!-- \/file-notice -->\s*/g, '')
          .replace(/(<link rel="icon"[^>]*href=")[^"]*(")/, `$1${dataUrl('icon.svg', 'image/svg+xml')}$2`)
          .replace(
            /(<link rel="apple-touch-icon"[^>]*href=")[^"]*(")/,
            `$1${dataUrl('apple-touch-icon.png', 'image/png')}$2`,
          );
      },
    },
  };
}
