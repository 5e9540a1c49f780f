// Browser tests: test/browser/*.spec.ts in real Chromium against the fixture page, which Vite
// serves with the built package (test/browser/vite.config.ts). `npm test` runs them after vitest.
import { createServer } from 'node:net';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, requireChromium } from './scripts/chromium.mjs';

/** A free port, chosen once by the runner and inherited by its workers through the environment. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

process.env.BROWSER_TEST_PORT ??= String(await freePort());
const port = Number(process.env.BROWSER_TEST_PORT);
const baseURL = `http://127.0.0.1:${port}`;
// The playground (demo/) gets its own server; test/browser/playground*.spec.ts point baseURL at it.
process.env.PLAYGROUND_TEST_PORT ??= String(await freePort());
const playgroundPort = Number(process.env.PLAYGROUND_TEST_PORT);
const chromium = requireChromium();

export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: chromium.path, args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: `npx vite --config test/browser/vite.config.ts --host 127.0.0.1 --port ${port} --strictPort`,
      url: baseURL,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // --mode test: no reloads when src/ changes mid-run (demo/vite.config.ts). --bypass-lock: Vite 8
      // refuses a second dev server of the same config, and another test run may be serving it.
      command: `npx vite --config demo/vite.config.ts --mode test --host 127.0.0.1 --port ${playgroundPort} --strictPort --bypass-lock`,
      url: `http://127.0.0.1:${playgroundPort}`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
