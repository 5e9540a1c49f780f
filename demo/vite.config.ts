// The playground: `npm start` serves it, `npm run build:demo` builds it into dist-demo/.
// It imports the library from src/, so it needs no library build, and its own outDir keeps
// it away from the library's dist/ (which vite empties on every build).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { packageAliases } from '../scripts/package-entries.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig(({ mode }) => ({
  root: here('.'),
  // Every entry point (`tool-search-layer`, `tool-search-layer/openai`, ...) from its source file.
  resolve: { alias: packageAliases('src') },
  build: {
    outDir: here('../dist-demo'),
    emptyOutDir: true,
    target: 'es2022',
    // The big chunks are data loaded on demand (bfcl's catalogue, the tokenizer's ranks), not code.
    chunkSizeWarningLimit: 2600,
  },
  // Its own dependency cache: the browser tests run this server beside the fixture server.
  cacheDir: here('../node_modules/.vite/playground'),
  // The browser tests (`--mode test`) must not reload the page when someone edits src/ mid-run.
  server: mode === 'test' ? { hmr: false, watch: null } : {},
  clearScreen: false,
}));
