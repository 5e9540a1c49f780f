// What each entry point costs a user's bundle: bundled with its dependencies, minified, then compressed.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The core entry's target, min+brotli. */
export const CORE_SIZE_LIMIT = 8 * 1024;

export interface SizeRow {
  entry: string;
  file: string;
  minBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

type ExportTarget = string | { [condition: string]: ExportTarget } | null;

/** The file a bundler picks for an ESM import: `import`, then `default` (types and package.json skipped). */
function importFile(target: ExportTarget): string | undefined {
  if (typeof target === 'string') return target.endsWith('.json') ? undefined : target;
  if (!target) return undefined;
  return importFile(target.import ?? target.default ?? null);
}

/** Each `exports` entry of the package.json, bundled with esbuild (browser platform, ESM) as a user's bundler would. */
export async function measureSize(packageJsonPath: string): Promise<SizeRow[]> {
  const root = dirname(packageJsonPath);
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { exports?: Record<string, ExportTarget> };
  const rows: SizeRow[] = [];
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    const file = importFile(target);
    if (!file) continue;
    const result = await build({
      entryPoints: [join(root, file)],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      // Modules the runtime provides (Workers, Node) cost nothing to ship.
      external: ['cloudflare:*', 'node:*'],
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    rows.push({
      entry,
      file,
      minBytes: code.byteLength,
      gzipBytes: gzipSync(code, { level: 9 }).byteLength,
      brotliBytes: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength,
    });
  }
  return rows;
}
