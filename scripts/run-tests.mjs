// `npm test`: every vitest project, then the Playwright browser tests. Both always run, so one
// failing part does not hide the other's result; the exit code is non-zero if either failed.
import { spawnSync } from 'node:child_process';

const parts = [
  { name: 'vitest (core-src, core-dist, core-workerd, node)', command: 'vitest', args: ['run'] },
  { name: 'playwright (Chromium)', command: 'playwright', args: ['test'] },
];

const results = parts.map((part) => {
  const started = performance.now();
  const run = spawnSync('npx', ['--no-install', part.command, ...part.args], {
    stdio: 'inherit',
  });
  return { ...part, ok: run.status === 0, seconds: (performance.now() - started) / 1000 };
});

console.log('\nnpm test summary:');
for (const r of results) console.log(`  ${r.ok ? 'passed' : 'FAILED'}  ${r.name}  ${r.seconds.toFixed(1)} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
