// The test projects. One core suite (test/core) runs three times: on src/ and on the built dist/
// in Node, and on dist/ inside workerd, the Cloudflare Workers runtime. The browser tests are
// Playwright's (playwright.config.ts); `npm test` runs both.
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { packageAliases } from './scripts/package-entries.mjs';

// No path at all when none is found: Playwright then says which browser it lacks.
const chromiumPath = () => {
  const path = findChromium()?.path;
  return path ? { executablePath: path } : {};
};

const coreTests = ['test/core/**/*.test.ts'];
// A time limit only catches a hang: speed is the bench's to measure. Vitest's default of 5 s failed a test that
// takes 1 to 4 s here when CI's two cores ran every project at once, so each project waits a minute.
const limits = { testTimeout: 60_000, hookTimeout: 60_000 };
const distCheck = ['scripts/vitest-dist-check.mjs'];

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: packageAliases('src') },
        test: { ...limits, name: 'core-src', include: coreTests, environment: 'node' },
      },
      {
        resolve: { alias: packageAliases('dist') },
        test: { ...limits, name: 'core-dist', include: coreTests, environment: 'node', globalSetup: distCheck },
      },
      {
        // The worker's compatibility date and (later) its KV and Durable Object bindings live in
        // test/workerd/wrangler.jsonc; test/workerd/*.test.ts checks the runtime is really workerd.
        plugins: [cloudflareTest({ wrangler: { configPath: './test/workerd/wrangler.jsonc' } })],
        resolve: { alias: packageAliases('dist') },
        test: {
          ...limits,
          name: 'core-workerd',
          // One workerd for all files, as one Worker isolate serves many requests; isolated files
          // would start a workerd each (about 19 s instead of 8 s here for five files).
          isolate: false,
          include: [...coreTests, 'test/workerd/**/*.test.ts'],
          globalSetup: distCheck,
        },
      },
      {
        test: { ...limits, name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node' },
      },
      {
        // The framework adapters against the real SDKs, their mock models and real MCP servers from npm.
        resolve: { alias: packageAliases('src') },
        test: { ...limits, name: 'adapters', include: ['test/adapters/**/*.test.ts'], environment: 'node' },
      },
      {
        // The IndexedDB store over fake-indexeddb; its test also reads dist/ (the root entry has no idb-keyval).
        resolve: { alias: packageAliases('src') },
        test: {
          ...limits,
          name: 'idb',
          include: ['test/stores/indexeddb.node.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        // The IndexedDB store in real Chromium (the one Playwright drives, see scripts/chromium.mjs), on dist/.
        resolve: { alias: packageAliases('dist') },
        test: {
          ...limits,
          name: 'idb-chromium',
          include: ['test/browser/indexeddb.test.ts'],
          globalSetup: distCheck,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { ...chromiumPath(), args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            // The page shows nothing worth a picture; failures are in the report.
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
