// The memory indexes of an isolate, shared by its layers: a Worker builds a store and a layer per request, and without
// this every request's first search would index the scope's whole memory again. An index is shared by the layers
// whose stores give the same storage identity (SharedSpace.identity), for one scope, byte bound and sets setting;
// nothing crosses storages or scopes. Each layer still reads the heads and pages itself and brings the shared index to
// what it read, indexing again only the pages whose content (their tag and hash, memory-pages.ts) changed.
//
// What a shared index can hold stale, and for how long: what some layer of the isolate read, at most REFRESH_MS
// (space-cache.ts) before that layer brought the index to it, as a layer alone answers from what it read. A layer may
// thus vote on another layer's slightly older or newer view (never a half-applied one: a layer brings the index to
// its view with no await in between). A page the index holds as closed is trusted, unread, by every layer while its
// lane's run (the head's tag) is the one the page was read closed in: a clear deletes the heads, so the next run has
// another tag and every page is read again. On KV, a read-back rewrite of a page after it closed (two isolates
// appended to it at once) can leave the index holding a request the store lost, or lacking one it kept, until the page
// is dropped from its lane: a layer alone reads a closed page once too.
import type { MemoryIndex } from './memory.ts';
import { createMemoryIndex } from './memory.ts';
import { heldPrefix, pageEntries } from './memory-pages.ts';

/**
 * A memory index and, per page it holds, what that page was loaded from: its content id (memory-pages.ts
 * `pageContent`) in a shared index, the stored value itself in a layer's own; and per page read closed, the run of its
 * lane it was read closed in.
 */
export interface BuiltMemory {
  readonly memory: MemoryIndex;
  readonly pages: Map<number, unknown>;
  readonly closed: Map<number, string>;
  /**
   * What a layer last brought the index to: a layer whose values read lately are these very values votes on the
   * index as it is, since bringing it to them again would change nothing.
   */
  from: BuiltFrom | undefined;
}

/** The values an index was brought to: each lane's head as read, and the key and value of the page it fills. */
export interface BuiltFrom {
  readonly heads: readonly unknown[];
  readonly pages: readonly (readonly [key: string, value: unknown])[];
}

/**
 * Whether a shared index's page is a later state of the same filling than the one a layer read (its tag the same, its
 * entries more): a layer whose reads are older than another's (up to REFRESH_MS) does not take the index back to them.
 */
function laterFilling(held: unknown, read: unknown): boolean {
  if (typeof held !== 'string' || typeof read !== 'string') return false;
  const [heldTag, , heldCount] = held.split('.');
  const [readTag, , readCount] = read.split('.');
  return heldTag === readTag && Number(heldCount) > Number(readCount);
}

/**
 * Brings an index to the pages a layer read (`contents`, by page id): pages gone are dropped, pages whose content
 * differs indexed again from their stored value (`stored`), or only what was appended to them, and the pages read
 * closed (`closedIn`, with their run) recorded as such.
 */
export function bringTo(
  target: BuiltMemory,
  shared: boolean,
  contents: ReadonlyMap<number, unknown>,
  closedIn: ReadonlyMap<number, string>,
  stored: (id: number) => unknown,
): MemoryIndex {
  // The pages read are the keys of `contents`: no set of them is made (a read after a commit keeps all about 20).
  for (const id of target.pages.keys()) if (!contents.has(id)) target.pages.delete(id);
  target.memory.retain(contents);
  for (const [id, content] of contents) {
    const was = target.pages.get(id);
    if (!(was === content || (shared && laterFilling(was, content)))) {
      const value = stored(id);
      const from = heldPrefix(value, was);
      if (from > 0) target.memory.extend(id, pageEntries(value, from));
      else target.memory.load(id, pageEntries(value));
      target.pages.set(id, content);
    }
    const run = closedIn.get(id);
    if (run === undefined) target.closed.delete(id);
    else target.closed.set(id, run);
  }
  for (const id of target.closed.keys()) if (!contents.has(id)) target.closed.delete(id);
  return target.memory;
}

/**
 * Indexes kept per storage, the least recently used going first: a long-lived isolate may serve many scopes (a scope
 * per tenant), and a layer built per request whose scope's index was let go indexes the scope's whole memory again
 * (about 10 ms a search at seal-tools' 677 requests, against 0.6). So an isolate keeps the four indexes it used last,
 * and more while all it keeps hold at most TERMS_KEPT terms, up to KEPT_AT_MOST indexes.
 */
const KEPT_AT_LEAST = 4;
const KEPT_AT_MOST = 256;

/**
 * Terms held by the indexes an isolate keeps per storage past its four last used, summed (MemoryIndex.terms): about
 * 30 MB of heap, measured at 150 bytes a term at seal-tools and ToolLens. A Worker's isolate has 128 MB; one full
 * default memory (2,000,000 bytes, 12,000 requests of a dozen terms) is about 150,000 terms.
 */
const TERMS_KEPT = 200_000;

/** Whether an isolate keeps more indexes than it should: past the most, or past the four with too many terms in all. */
function tooMany(byKey: ReadonlyMap<string, { built: BuiltMemory }>): boolean {
  if (byKey.size > KEPT_AT_MOST) return true;
  if (byKey.size <= KEPT_AT_LEAST) return false;
  let terms = 0;
  for (const { built } of byKey.values()) terms += built.memory.terms;
  return terms > TERMS_KEPT;
}

const isolate = /* @__PURE__ */ new WeakMap<object, Map<string, { scope: string; built: BuiltMemory }>>();

/** An empty memory index of one layer or of the isolate. */
export const createBuilt = (sets: boolean): BuiltMemory => ({
  memory: createMemoryIndex(sets),
  pages: new Map(),
  closed: new Map(),
  from: undefined,
});

/**
 * The isolate's index of a scope in a storage, made the most recently used; when it holds none, `had` (the index a
 * layer brought up last, let go since to keep the isolate within its bound, not dropped by a clear) is kept again, or
 * with `create` an empty one is made.
 */
function kept(identity: object, scope: string, memoryBytes: number, sets: boolean, create: boolean, had?: BuiltMemory) {
  let byKey = isolate.get(identity);
  if (!byKey) {
    byKey = new Map();
    isolate.set(identity, byKey);
  }
  const key = JSON.stringify([scope, memoryBytes, sets]);
  const found = byKey.get(key);
  if (!found && !create) return undefined;
  const hit = found ?? { scope, built: had && !dropped.has(had) ? had : createBuilt(sets) };
  byKey.delete(key);
  byKey.set(key, hit);
  while (tooMany(byKey)) byKey.delete(byKey.keys().next().value as string);
  return hit.built;
}

/**
 * The isolate's index of a scope in a storage, created empty when there is none (or it was dropped). A long-lived
 * layer passes the index it last brought up (`had`): if the isolate let it go to keep within its bound, it is kept
 * again rather than the scope's whole memory indexed anew.
 */
export const sharedBuilt = (
  identity: object,
  scope: string,
  memoryBytes: number,
  sets: boolean,
  had?: BuiltMemory,
): BuiltMemory => kept(identity, scope, memoryBytes, sets, true, had) as BuiltMemory;

/** The isolate's index of a scope in a storage, if it holds one. */
export const heldBuilt = (
  identity: object,
  scope: string,
  memoryBytes: number,
  sets: boolean,
): BuiltMemory | undefined => kept(identity, scope, memoryBytes, sets, false);

/** Indexes a clear or a forget dropped: a layer that still holds one never brings it back. */
const dropped = /* @__PURE__ */ new WeakSet<BuiltMemory>();

/** Drops the isolate's indexes of a storage: of one scope, or (a clear of the store) of all. */
export function dropShared(identity: object | undefined, scope?: string): void {
  if (!identity) return;
  const kept = isolate.get(identity);
  if (!kept) return;
  for (const [key, entry] of kept)
    if (scope === undefined || entry.scope === scope) {
      dropped.add(entry.built);
      kept.delete(key);
    }
}
