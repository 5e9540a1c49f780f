// Issue 42 item 3: TypeScript users of the Cloudflare stores failed tsc with `Cannot find module
// '@cloudflare/workers-types'` from dist/stores/durable-object.d.ts. The stores' declarations now write the bindings
// out structurally (src/stores/cloudflare-types.ts) and import no types package. Checked in projects that hold the
// built package: with no @cloudflare/workers-types, a test double type-checks and a wrong value is refused; with it,
// Cloudflare's own `DurableObjectStorage` and `KVNamespace` fit, imported from the module and as globals
// (`types: ['@cloudflare/workers-types']`).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDistBuilt } from '../../scripts/package-entries.mjs';

const root = join(import.meta.dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const project = mkdtempSync(join(tmpdir(), 'tsl-cf-types-'));

// A user's test doubles, typed with the entries' own types; a number and a namespace without list() are refused.
const doubles = `import { createKvStore, type KvNamespaceLike } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore, type DurableObjectStorageLike } from 'tool-search-layer/durable-object';
const data = new Map<string, any>();
const storage: DurableObjectStorageLike = {
  get: async (key: any): Promise<any> => (Array.isArray(key) ? new Map(key.map((k) => [k, data.get(k)])) : data.get(key)),
  put: async (key: any, value?: any) => void data.set(key, value),
  delete: async (key: any): Promise<any> => data.delete(key),
  list: async (): Promise<any> => new Map(data),
};
const texts = new Map<string, string>();
const namespace: KvNamespaceLike = {
  get: async (key) => texts.get(key) ?? null,
  put: async (key, value) => void texts.set(key, value),
  delete: async (key) => void texts.delete(key),
  list: async () => ({ keys: [...texts.keys()].map((name) => ({ name })) }),
};
export const stores = [createDurableObjectStore({ storage }), createKvStore({ namespace })];
// @ts-expect-error a number is no storage
createDurableObjectStore({ storage: 1 });
// @ts-expect-error a namespace needs list()
createKvStore({ namespace: { get: namespace.get, put: namespace.put, delete: namespace.delete } });
`;

// Cloudflare's own types, from the module.
const fromModule = `import type { DurableObjectState, KVNamespace } from '@cloudflare/workers-types';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
export const make = (state: DurableObjectState, namespace: KVNamespace) => [
  createDurableObjectStore({ storage: state.storage }),
  createKvStore({ namespace, ttlSeconds: 60 }),
];
`;

// The same types as globals.
const fromGlobals = `import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
export const make = (state: DurableObjectState, namespace: KVNamespace) => [
  createDurableObjectStore({ storage: state.storage }),
  createKvStore({ namespace }),
];
`;

/** tsc's output over one file of the project, with the given `types` ('' when it passes). */
function check(file: string, types: string[]): string {
  const compilerOptions = {
    strict: true,
    module: 'ESNext',
    moduleResolution: 'Bundler',
    target: 'ES2022',
    lib: ['ES2023'],
    noEmit: true,
    skipLibCheck: false,
    types,
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [file] }));
  const run = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  return `${run.stdout}${run.stderr}`.trim();
}

beforeAll(() => {
  assertDistBuilt();
  const own = join(project, 'node_modules', 'tool-search-layer');
  mkdirSync(own, { recursive: true });
  cpSync(join(root, 'dist'), join(own, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(own, 'package.json'));
  // The core's declarations name valibot's types; a user's install has it, as a dependency of the package.
  symlinkSync(join(root, 'node_modules', 'valibot'), join(project, 'node_modules', 'valibot'));
  writeFileSync(join(project, 'doubles.ts'), doubles);
  writeFileSync(join(project, 'module.ts'), fromModule);
  writeFileSync(join(project, 'globals.ts'), fromGlobals);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the Cloudflare stores in a TypeScript project', () => {
  it('declare no import of @cloudflare/workers-types', () => {
    const stores = join(root, 'dist', 'stores');
    for (const file of readdirSync(stores).filter((name) => name.endsWith('.d.ts'))) {
      expect(readFileSync(join(stores, file), 'utf8'), file).not.toContain('@cloudflare/workers-types');
    }
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies).not.toHaveProperty(
      '@cloudflare/workers-types',
    );
  });

  it('type-check without @cloudflare/workers-types, test doubles included, and refuse a wrong value', () => {
    expect(check('doubles.ts', [])).toBe('');
    // Without the directives' errors the check has no teeth: take one away and tsc must complain.
    writeFileSync(join(project, 'doubles.ts'), doubles.replace('// @ts-expect-error a number is no storage\n', ''));
    expect(check('doubles.ts', [])).toMatch(/doubles\.ts\(\d+,\d+\): error TS2322/);
    writeFileSync(join(project, 'doubles.ts'), doubles);
    // Nothing of the user's resolves the module: the store types stand on their own.
    expect(check('module.ts', [])).toMatch(/Cannot find module '@cloudflare\/workers-types'/);
  });

  it("take Cloudflare's own DurableObjectStorage and KVNamespace, from the module and as globals", () => {
    mkdirSync(join(project, 'node_modules', '@cloudflare'), { recursive: true });
    symlinkSync(
      join(root, 'node_modules', '@cloudflare', 'workers-types'),
      join(project, 'node_modules', '@cloudflare', 'workers-types'),
    );
    expect(check('module.ts', [])).toBe('');
    expect(check('globals.ts', ['@cloudflare/workers-types'])).toBe('');
  });
});
