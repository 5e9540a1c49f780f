import { defineConfig } from 'vite';

// The library build: one ESM file per entry point, dependencies left to the user's bundler.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    target: 'es2022',
    lib: {
      entry: { index: 'src/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      external: [/^valibot/, /^stemmer/, /^idb-keyval/, /^cloudflare:/],
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
