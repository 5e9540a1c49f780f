// Serves the browser test page (test/browser/fixture) for Playwright. The page imports the
// package by name and gets the built dist/, the file a user's bundler would get.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { packageAliases } from '../../scripts/package-entries.mjs';

export default defineConfig({
  root: fileURLToPath(new URL('./fixture', import.meta.url)),
  resolve: { alias: packageAliases('dist') },
  // Serve dependencies as the ES modules they are: no pre-bundling, so no mid-test reload
  // when Vite discovers a dependency, and no cache to go stale between runs.
  optimizeDeps: { noDiscovery: true, include: [] },
  server: { hmr: false, watch: null },
  clearScreen: false,
});
