// `npm test`: static checks, every vitest project, then the Playwright browser tests. Every part
// always runs, so one failing part does not hide another's result; the exit code is non-zero if any failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

/** The first non-empty line of a failure's message, colour codes stripped, for the summary. */
const firstLine = (messages) =>
  (messages ?? [])
    .join('\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '(no message)';

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
      const report = JSON.parse(readFileSync(vitestJson, 'utf8'));
      const failures = report.testResults.flatMap((file) =>
        file.assertionResults
          .filter((test) => test.status === 'failed')
          .map(
            (test) => `${relative(process.cwd(), file.name)} > ${test.fullName}: ${firstLine(test.failureMessages)}`,
          ),
      );
      return { passed: report.numPassedTests, failed: report.numFailedTests, failures };
    },
  },
  {
    name: 'playwright (Chromium)',
    command: 'playwright',
    args: ['test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
    count: () => {
      const report = JSON.parse(readFileSync(playwrightJson, 'utf8'));
      const failures = [];
      const walk = (suite) => {
        for (const spec of suite.specs ?? []) {
          for (const test of spec.tests ?? []) {
            if (test.status !== 'unexpected') continue;
            const error = test.results?.at(-1)?.error?.message;
            failures.push(`${spec.file}:${spec.line} > ${spec.title}: ${firstLine([error])}`);
          }
        }
        for (const child of suite.suites ?? []) walk(child);
      };
      for (const suite of report.suites ?? []) walk(suite);
      const { stats } = report;
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected, failures };
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
  // The failing tests by name, so the tail of a CI log is enough to know which one failed.
  for (const failure of r.counts?.failures ?? []) console.log(`      failed: ${failure}`);
}
const passed = results.reduce((sum, r) => sum + (r.counts?.passed ?? 0), 0);
const failed =
  results.reduce((sum, r) => sum + (r.counts?.failed ?? 0), 0) + results.filter((r) => !r.ok && !r.counts).length;
// One plain closing line that any CI can read.
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) && passed > 0 ? 0 : 1);
