// min+brotli of an entry with its dynamic imports left out (they load on first use, as a user's bundler splits them)

import { brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';

const entry = process.argv[2] ?? 'dist/index.js';
const lazyOut = {
  name: 'lazy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined));
  },
};
const r = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  logLevel: 'silent',
  plugins: [lazyOut],
  external: ['cloudflare:*', 'node:*'],
});
const code = r.outputFiles[0].contents;
console.log(
  JSON.stringify({
    entry,
    min: code.length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }),
);
