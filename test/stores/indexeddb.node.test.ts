// The IndexedDB store in Node over fake-indexeddb (loaded by the `idb` project's setup): its own
// promises, and that the root entry never pulls idb-keyval.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { assertDistBuilt, projectRoot } from '../../scripts/package-entries.mjs';
import { indexedDbCases, indexedDbConformance } from './indexeddb-cases.ts';

indexedDbConformance('node');
indexedDbCases('node');

describe('IndexedDB store: the entry point', () => {
  it('has no side effect on import: nothing is opened', async () => {
    const open = vi.spyOn(indexedDB, 'open');
    vi.resetModules();
    const entry = await import('tool-search-layer/indexeddb');
    expect(Object.keys(entry)).toEqual(['createIndexedDbStore']);
    entry.createIndexedDbStore();
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });

  it('throws a clear error, on the first call only, where there is no IndexedDB', async () => {
    const { createIndexedDbStore } = await import('tool-search-layer/indexeddb');
    const saved = globalThis.indexedDB;
    const store = createIndexedDbStore();
    try {
      // @ts-expect-error: a runtime without IndexedDB (a Worker, server-side rendering)
      delete globalThis.indexedDB;
      await expect(store.get('s')).rejects.toThrow(/this runtime has no IndexedDB/);
    } finally {
      globalThis.indexedDB = saved;
    }
  });

  it('keeps idb-keyval out of the root entry, in src and in the build', () => {
    expect(importsOf(resolve(projectRoot, 'src/index.ts'))).not.toContain('idb-keyval');
    assertDistBuilt();
    const built = importsOf(resolve(projectRoot, 'dist/index.js'));
    expect(built.length).toBeGreaterThan(0);
    expect(built).not.toContain('idb-keyval');
    expect(importsOf(resolve(projectRoot, 'dist/indexeddb.js'))).toContain('idb-keyval');
  });
});

/** Every bare module a file pulls in, following its relative imports (static and dynamic). */
function importsOf(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  const specifiers = [...code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  return specifiers.flatMap((specifier) =>
    specifier.startsWith('.') ? importsOf(resolve(dirname(file), specifier), seen) : [specifier],
  );
}
