import { defineConfig } from 'vite';
import { packageEntries } from './scripts/package-entries.mjs';

// The library build: one ESM file per entry point, dependencies left to the user's bundler.
// The entries are package.json's `exports` (src/<name>.ts -> dist/<name>.js), so a new entry point
// is one line there and nothing here.
const entry = Object.fromEntries(
  packageEntries().map(({ dist, src }) => [dist.replace(/^.*\/dist\//, '').replace(/\.js$/, ''), src]),
);

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    target: 'es2022',
    lib: { entry, formats: ['es'] },
    rolldownOptions: {
      // Runtime and peer dependencies stay imports: the user's bundler resolves them once.
      external: [
        /^valibot/,
        /^@cfworker\/json-schema/,
        /^re2js/,
        /^stemmer/,
        /^idb-keyval/,
        /^cloudflare:/,
        /^ai(\/|$)/,
        /^@ai-sdk\//,
        /^openai(\/|$)/,
        /^@anthropic-ai\//,
        /^@google\/genai/,
        /^@modelcontextprotocol\//,
        /^langchain(\/|$)/,
        /^@langchain\//,
      ],
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
