// What each entry point costs a user's bundle: bundled with its dependencies, minified, then compressed.
// Code the library imports only when an option asks for it (a dynamic import) is a chunk of its own in a
// user's bundle: it is counted apart, as that option's cost on top of the entry.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Metafile, type OutputFile } from 'esbuild';

/** The core entry's bound, min+brotli (issue 41: 18.5 KB), for the entry and every chunk it imports statically. */
export const CORE_SIZE_LIMIT = 18_944;

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

type Sizes = Omit<SizeRow, 'entry' | 'file'>;

function sizesOf(code: Uint8Array): Sizes {
  return {
    minBytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    brotliBytes: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength,
  };
}

/** The chunk a layer loads with its first search: the other lazy rows are counted on top of it. */
const SEARCH_CHUNK = 'search-run';

/** A chunk loaded only through a dynamic import, named by the source module that holds most of it. */
interface LazyChunk {
  readonly name: string;
  readonly sizes: Sizes;
}

interface Bundle {
  /** The entry and every chunk it imports statically: what loading the entry costs. */
  readonly eager: Sizes;
  readonly lazy: LazyChunk[];
}

/**
 * A bundle's text with each import of another file named without its hashes (esbuild's here, and the build's in
 * dist/): a hash changes with what the file it names holds, and with where the checkout lies, so a change to a chunk
 * loaded only when used moved the core's brotli figure (13,901 to 13,933 bytes for the same core).
 */
export const unhashed = (text: string): string =>
  text.replace(/(["']\.\.?\/[\w./-]*?)(?:-[\w-]{8})+(\.js["'])/g, '$1$2');

/** The files' texts, one after another, unhashed. */
const concat = (files: readonly OutputFile[]): Uint8Array =>
  new TextEncoder().encode(files.map((f) => unhashed(f.text)).join(''));

/** The outputs a file loads, following static imports only (`seen` collects them). */
function closure(meta: Metafile, path: string, seen: Set<string>): Set<string> {
  if (seen.has(path)) return seen;
  seen.add(path);
  for (const i of meta.outputs[path]?.imports ?? [])
    if (i.kind === 'import-statement' && !i.external) closure(meta, i.path, seen);
  return seen;
}

/** The source module that contributes most bytes to a chunk, as a short label (its file name without extension). */
function labelOf(meta: Metafile, paths: Iterable<string>): string {
  let best = ['', -1] as [string, number];
  for (const path of paths)
    for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[path]?.inputs ?? {}))
      if (bytesInOutput > best[1]) best = [input, bytesInOutput];
  const file = best[0].replace(/^.*node_modules\//, '').replace(/\/dist\/.*$/, '');
  const short =
    file.includes('/') && !file.startsWith('@') ? (file.split('/').pop() ?? file).replace(/\.[jt]s$/, '') : file;
  return short.replace(/-[\w]{8}$/, '');
}

const options = (external: string[]) =>
  ({
    bundle: true,
    minify: true,
    format: 'esm',
    // Neutral: no browser- or Node-only file of a dependency is picked, as one build serves every host.
    platform: 'neutral',
    target: 'es2022',
    external,
    write: false,
    metafile: true,
    logLevel: 'silent',
  }) as const;

/**
 * Bundles a file as a user's bundler would (ESM, minified, split at dynamic imports): what loading the entry costs is
 * the entry's output and every chunk it imports statically, concatenated (a chunk shared with lazy code counts too).
 */
async function bundle(entry: string, external: string[]): Promise<Bundle> {
  const split = await build({
    ...options(external),
    entryPoints: [entry],
    splitting: true,
    outdir: join(tmpdir(), 'tsl-size-out'),
  });
  const meta = split.metafile;
  // The metafile names outputs relative to the working directory; output files carry absolute paths.
  const byPath = new Map(split.outputFiles.map((f) => [f.path, f]));
  const file = (path: string) => byPath.get(resolve(path)) as OutputFile;
  // Each dynamically imported module is an entry point of the split build too: the main output is the entry's own.
  const main = Object.keys(meta.outputs).find((path) => {
    const from = meta.outputs[path]?.entryPoint;
    return from !== undefined && resolve(from) === resolve(entry);
  }) as string;
  const loaded = closure(meta, main, new Set());
  const dynamic: { path: string; name: string }[] = [];
  for (const path of loaded)
    for (const i of meta.outputs[path]?.imports ?? []) {
      if (i.kind !== 'dynamic-import' || i.external || loaded.has(i.path)) continue;
      // Named by the module the import loads (its chunk's entry).
      const entry = meta.outputs[i.path]?.entryPoint;
      const name = entry ? (entry.split('/').pop() as string).replace(/\.[jt]s$/, '').replace(/-[\w-]{8}$/, '') : '';
      dynamic.push({ path: i.path, name });
    }
  // Every layer that learns, ranks semantically or answers a refused call also searches: the search's own chunk is
  // counted once, in its row, and the other rows are what they add on top of the core and it.
  const search = dynamic.find((d) => d.name === SEARCH_CHUNK);
  const searched = search ? closure(meta, search.path, new Set(loaded)) : loaded;
  const lazy: LazyChunk[] = [];
  for (const { path, name } of dynamic) {
    const before = path === search?.path ? loaded : searched;
    const own = [...closure(meta, path, new Set())].filter((p) => !before.has(p));
    lazy.push({ name: name || labelOf(meta, own), sizes: sizesOf(concat(own.map(file))) });
  }
  return { eager: sizesOf(concat([...loaded].map(file))), lazy };
}

/**
 * Each `exports` entry of the package.json, bundled with its dependencies, counting only what it loads at import.
 * Peer dependencies (the adapters' frameworks) stay external: an app that uses an adapter ships its framework anyway.
 * Modules the runtime provides (Workers, Node) cost nothing to ship. After the core's row come its options' rows:
 * each chunk the core imports only when an option asks for it, with its cost on top of the core.
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
  const coreBundle = core ? await bundle(join(root, core), external) : undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'tsl-size-'));
  const rows: SizeRow[] = [];
  try {
    for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
      const file = importFile(target);
      if (!file) continue;
      if (file === core && coreBundle) {
        rows.push({ entry, file, ...coreBundle.eager });
        for (const chunk of coreBundle.lazy) {
          const option = `${entry} + ${chunk.name} (loaded when used)`;
          rows.push({ entry: option, file: 'chunk', ...chunk.sizes, addedBrotliBytes: chunk.sizes.brotliBytes });
        }
        continue;
      }
      const size = (await bundle(join(root, file), external)).eager;
      let addedBrotliBytes: number | undefined;
      if (core && coreBundle) {
        const both = join(scratch, `${entry.replace(/\W/g, '_')}.js`);
        writeFileSync(
          both,
          `export * from ${JSON.stringify(join(root, core))};\nexport * from ${JSON.stringify(join(root, file))};`,
        );
        addedBrotliBytes = (await bundle(both, external)).eager.brotliBytes - coreBundle.eager.brotliBytes;
      }
      rows.push({ entry, file, ...size, ...(addedBrotliBytes !== undefined && { addedBrotliBytes }) });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}
