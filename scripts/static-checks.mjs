// `npm test`'s first step: the typecheck (tsc -b) and the lint (eslint .) side by side. Each is
// single-threaded and takes tens of seconds, so on a 2-core machine running them together saves the
// shorter one's time. Each one's output is printed when it ends (never interleaved); the exit code
// is non-zero when either fails.
import { spawn } from 'node:child_process';

const checks = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
];
const started = Date.now();
const results = await Promise.all(
  checks.map(
    ([name, cmd, args]) =>
      new Promise((resolve) => {
        const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('error', (e) => resolve({ name, code: 1, out: `${out}${e.message}\n` }));
        child.on('close', (code) => {
          const s = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`${out}${code === 0 ? '✓' : '✗'} ${name} (${s} s)\n`);
          resolve({ name, code });
        });
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length) console.error(`\n✗ ${failed.join(' and ')} failed`);
process.exit(failed.length ? 1 : 0);
