// `npm test`: static checks, every vitest project, then the Playwright browser tests. Every part
// always runs, so one failing part does not hide another's result; the exit code is non-zero if any failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const vitestJson = 'test-results/vitest.json';
const playwrightJson = 'test-results/playwright.json';
mkdirSync('test-results', { recursive: true });
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const parts = [
  { name: 'typecheck src (tsc --noEmit)', command: 'tsc', args: ['--noEmit'] },
  { name: 'typecheck test, bench, scripts', command: 'tsc', args: ['--noEmit', '-p', 'tsconfig.tests.json'] },
  { name: 'typecheck workerd tests', command: 'tsc', args: ['--noEmit', '-p', 'test/workerd/tsconfig.json'] },
  { name: 'lint (biome check)', command: 'biome', args: ['check', '.'] },
  { name: 'package (publint, attw esm-only)', command: 'publint', args: ['--strict'] },
  { name: 'package types (attw)', command: 'attw', args: ['--pack', '.', '--profile', 'esm-only'] },
  // The packed files, and every relative link of the packaged docs resolving inside the package.
  { name: 'package contents (check-pack)', command: 'node', args: ['scripts/check-pack.mjs'] },
  {
    name: 'vitest (core on src, dist and workerd; node; adapters; stores)',
    command: 'vitest',
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    count: () => {
      const { numPassedTests, numFailedTests } = JSON.parse(readFileSync(vitestJson, 'utf8'));
      return { passed: numPassedTests, failed: numFailedTests };
    },
  },
  {
    name: 'playwright (Chromium)',
    command: 'playwright',
    args: ['test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
    count: () => {
      const { stats } = JSON.parse(readFileSync(playwrightJson, 'utf8'));
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
    },
  },
];

const results = parts.map((part) => {
  const started = performance.now();
  const run = spawnSync('npx', ['--no-install', part.command, ...part.args], {
    stdio: 'inherit',
    env: { ...process.env, ...part.env },
  });
  let counts;
  try {
    counts = part.count?.();
  } catch {
    // no report: the runner died before writing one; its exit code says so
  }
  return { ...part, ok: run.status === 0, counts, seconds: (performance.now() - started) / 1000 };
});

console.log('\nnpm test summary:');
for (const r of results) {
  const counts = r.counts ? ` (${r.counts.passed} passed, ${r.counts.failed} failed)` : '';
  console.log(`  ${r.ok ? 'passed' : 'FAILED'}  ${r.name}${counts}  ${r.seconds.toFixed(1)} s`);
}
const passed = results.reduce((sum, r) => sum + (r.counts?.passed ?? 0), 0);
const failed =
  results.reduce((sum, r) => sum + (r.counts?.failed ?? 0), 0) + results.filter((r) => !r.ok && !r.counts).length;
// One plain closing line that any CI can read.
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) && passed > 0 ? 0 : 1);
