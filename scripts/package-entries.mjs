// The package's public entry points, read from package.json `exports`, so the tests import the
// library by its own name (`tool-search-layer`, `tool-search-layer/<subpath>`) and a new entry
// point is picked up by every test project without touching a config.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

function jsTarget(value) {
  if (typeof value === 'string') return value.endsWith('.js') ? value : undefined;
  if (value && typeof value === 'object') return jsTarget(value.import ?? value.default);
  return undefined;
}

// The source file of each entry point: the file that holds its API (no one-line shims at the top of src/).
// A new entry point is a line in package.json `exports` and one here.
const sources = {
  '.': 'src/index.ts',
  './ai-sdk': 'src/adapters/ai-sdk/index.ts',
  './mcp': 'src/adapters/mcp/index.ts',
  './openai': 'src/adapters/openai/index.ts',
  './anthropic': 'src/adapters/anthropic/index.ts',
  './gemini': 'src/adapters/gemini/index.ts',
  './indexeddb': 'src/stores/indexeddb.ts',
  './cloudflare-kv': 'src/stores/cloudflare-kv.ts',
  './durable-object': 'src/stores/durable-object.ts',
  './cold-start': 'src/search/serialize.ts',
  './cost': 'src/cost/index.ts',
  './zh': 'src/core/locale-zh.ts',
  './langchain': 'src/adapters/langchain/index.ts',
  './workers-ai': 'src/semantic/embedders/workers-ai.ts',
};

/**
 * One row per JavaScript entry point: its import specifier, its built file and its source file
 * (the table above; the build writes `dist/<subpath>.js`, see vite.config.ts).
 * @returns {{ specifier: string, dist: string, src: string }[]}
 */
export function packageEntries() {
  return Object.entries(manifest.exports ?? {}).flatMap(([key, value]) => {
    const target = jsTarget(value);
    if (!target) return [];
    const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
    const dist = resolve(root, target);
    if (!sources[key]) throw new Error(`scripts/package-entries.mjs: no source file for the entry ${key}`);
    const src = resolve(root, sources[key]);
    return [{ specifier, dist, src }];
  });
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Vite `resolve.alias` entries that send each specifier to the built (`dist`) or source (`src`) file.
 * Exact-match patterns, so `tool-search-layer` never swallows `tool-search-layer/<subpath>`.
 * @param {'src' | 'dist'} target
 */
export function packageAliases(target) {
  return packageEntries().map((entry) => ({
    find: new RegExp(`^${escapeRegExp(entry.specifier)}$`),
    replacement: entry[target],
  }));
}

function newestSource() {
  const files = readdirSync(resolve(root, 'src'), { recursive: true, withFileTypes: true });
  return Math.max(0, ...files.filter((f) => f.isFile()).map((f) => statSync(resolve(f.parentPath, f.name)).mtimeMs));
}

/** Throws a readable error when dist/ is missing or older than src/, so tests never run a stale build. */
export function assertDistBuilt() {
  const entries = packageEntries();
  const missing = entries.filter((entry) => !existsSync(entry.dist));
  if (missing.length > 0) {
    throw new Error(`Missing ${missing.map((e) => e.dist).join(', ')}: run \`npm run build\` first (npm test does).`);
  }
  const built = Math.min(...entries.map((entry) => statSync(entry.dist).mtimeMs));
  if (newestSource() > built) {
    throw new Error(
      'dist/ is older than src/: run `npm run build` (npm test and npm run test:unit do) and test again.',
    );
  }
}

export const projectRoot = root;
