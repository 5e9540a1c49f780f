// The memory indexes of an isolate, shared by its layers: a Worker builds a store and a layer per request, and without
// this every request's first search would index the scope's whole memory again. An index is shared by the layers
// whose stores give the same storage identity (SharedSpace.identity), for one scope, byte bound and sets setting;
// nothing crosses storages or scopes. Each layer still reads the heads and pages itself and brings the shared index to
// what it read, indexing again only the pages whose content (their tag and hash, memory-pages.ts) changed.
import { createMemoryIndex, type MemoryIndex } from './memory.ts';

/**
 * A memory index and, per page it holds, what that page was loaded from: its content id (memory-pages.ts
 * `pageContent`) in a shared index, the stored value itself in a layer's own.
 */
export interface BuiltMemory {
  readonly memory: MemoryIndex;
  readonly pages: Map<number, unknown>;
}

/** Indexes kept per storage, the least recently used going first: a long-lived isolate may serve many scopes. */
const KEPT_PER_STORAGE = 4;

const isolate = /* @__PURE__ */ new WeakMap<object, Map<string, { scope: string; built: BuiltMemory }>>();

/** An empty memory index of one layer or of the isolate. */
export const createBuilt = (sets: boolean): BuiltMemory => ({ memory: createMemoryIndex(sets), pages: new Map() });

/** The isolate's index of a scope in a storage, created empty when there is none (or it was dropped). */
export function sharedBuilt(identity: object, scope: string, memoryBytes: number, sets: boolean): BuiltMemory {
  let kept = isolate.get(identity);
  if (!kept) {
    kept = new Map();
    isolate.set(identity, kept);
  }
  const key = JSON.stringify([scope, memoryBytes, sets]);
  const hit = kept.get(key) ?? { scope, built: createBuilt(sets) };
  kept.delete(key);
  kept.set(key, hit);
  if (kept.size > KEPT_PER_STORAGE) kept.delete(kept.keys().next().value as string);
  return hit.built;
}

/** Drops the isolate's indexes of a storage: of one scope, or (a clear of the store) of all. */
export function dropShared(identity: object | undefined, scope?: string): void {
  if (!identity) return;
  const kept = isolate.get(identity);
  if (!kept) return;
  for (const [key, entry] of kept) if (scope === undefined || entry.scope === scope) kept.delete(key);
}
