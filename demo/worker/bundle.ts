// Bundles the example Worker as wrangler would (esbuild, ESM, the `workerd`/`worker`/`browser` export conditions,
// `cloudflare:*` and, with `nodejs_compat`, `node:*` left to the runtime), for
// the Miniflare test and the benchmark. `tool-search-layer` resolves to the package's own dist/ through
// its package.json exports, as it would from node_modules: run `npm run build` first.
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

// With `nodejs_compat`, wrangler hands a bare Node built-in (`path`, as some dependencies of `agents` import it)
// to the runtime as `node:path`.
const bareBuiltins = new RegExp(`^(${builtinModules.filter((name) => !name.startsWith('_')).join('|')})(/.*)?$`);
const nodeCompat: Plugin = {
  name: 'nodejs-compat',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: bareBuiltins }, (args) => ({ path: `node:${args.path}`, external: true }));
  },
};

/** Source to bundle instead of the example's entry: TypeScript resolved from `resolveDir`. */
export interface WorkerSource {
  readonly contents: string;
  readonly resolveDir: string;
}

/** Writes the bundled Worker (the example, or `source`) to `<outDir>/index.js` and returns that path. */
export async function bundleWorker(outDir: string, source?: WorkerSource): Promise<string> {
  const outfile = `${outDir}/index.js`;
  await build({
    ...(source
      ? { stdin: { ...source, loader: 'ts' as const, sourcefile: 'worker.ts' } }
      : { entryPoints: [fileURLToPath(new URL('src/index.ts', import.meta.url))] }),
    tsconfig: fileURLToPath(new URL('tsconfig.json', import.meta.url)),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    external: ['cloudflare:*', 'node:*'],
    outfile,
    plugins: [nodeCompat],
    logLevel: 'silent',
  });
  return outfile;
}
