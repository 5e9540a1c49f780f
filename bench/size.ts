// What each entry point costs a user's bundle: bundled with its dependencies, minified, then compressed.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/** The core entry's target, min+brotli. */
export const CORE_SIZE_LIMIT = 8 * 1024;

export interface SizeRow {
  entry: string;
  file: string;
  minBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  /** min+brotli of the core and this entry bundled together, less the core's own: what the entry adds to an app that has the core. */
  addedBrotliBytes?: number;
}

type ExportTarget = string | { [condition: string]: ExportTarget } | null;

/** The file a bundler picks for an ESM import: `import`, then `default` (types and package.json skipped). */
function importFile(target: ExportTarget): string | undefined {
  if (typeof target === 'string') return target.endsWith('.json') ? undefined : target;
  if (!target) return undefined;
  return importFile(target.import ?? target.default ?? null);
}

// What an entry loads on first use (the bridge, its validator) is a separate chunk in a user's bundle, not the entry's cost.
const lazyChunksApart: Plugin = {
  name: 'lazy-chunks-apart',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Bundles code as a user's bundler would (browser platform, ESM, minified) and measures it. */
async function bundleSize(
  input: { entry: string } | { contents: string; resolveDir: string },
  external: string[],
): Promise<Omit<SizeRow, 'entry' | 'file'>> {
  const result = await build({
    ...('entry' in input
      ? { entryPoints: [input.entry] }
      : { stdin: { contents: input.contents, resolveDir: input.resolveDir, loader: 'js' as const } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external,
    plugins: [lazyChunksApart],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return {
    minBytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    brotliBytes: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength,
  };
}

/**
 * Each `exports` entry of the package.json, bundled with its dependencies. Peer dependencies (the adapters'
 * frameworks) stay external: an app that uses an adapter ships its framework anyway. Modules the runtime
 * provides (Workers, Node) cost nothing to ship.
 */
export async function measureSize(packageJsonPath: string): Promise<SizeRow[]> {
  const root = dirname(packageJsonPath);
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
    exports?: Record<string, ExportTarget>;
    peerDependencies?: Record<string, string>;
  };
  const external = [
    'cloudflare:*',
    'node:*',
    ...Object.keys(manifest.peerDependencies ?? {}).flatMap((p) => [p, `${p}/*`]),
  ];
  const core = importFile(manifest.exports?.['.'] ?? null);
  const coreSize = core ? await bundleSize({ entry: join(root, core) }, external) : undefined;
  const rows: SizeRow[] = [];
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    const file = importFile(target);
    if (!file) continue;
    const size = await bundleSize({ entry: join(root, file) }, external);
    let addedBrotliBytes: number | undefined;
    if (core && coreSize && file !== core) {
      const both = `export * from ${JSON.stringify(`./${core}`)};\nexport * from ${JSON.stringify(`./${file}`)};`;
      addedBrotliBytes =
        (await bundleSize({ contents: both, resolveDir: root }, external)).brotliBytes - coreSize.brotliBytes;
    }
    rows.push({ entry, file, ...size, ...(addedBrotliBytes !== undefined && { addedBrotliBytes }) });
  }
  return rows;
}
