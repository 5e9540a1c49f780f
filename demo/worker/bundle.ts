// Bundles the example Worker as wrangler would (esbuild, ESM, `cloudflare:*` left to the runtime), for
// the Miniflare test and the benchmark. `tool-search-layer` resolves to the package's own dist/ through
// its package.json exports, as it would from node_modules: run `npm run build` first.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Writes the bundled Worker to `<outDir>/index.js` and returns that path. */
export async function bundleWorker(outDir: string, entry = 'src/index.ts'): Promise<string> {
  const outfile = `${outDir}/index.js`;
  await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    tsconfig: fileURLToPath(new URL('tsconfig.json', import.meta.url)),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    external: ['cloudflare:*'],
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
