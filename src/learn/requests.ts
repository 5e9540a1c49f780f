// The memory of past requests over the shared space: the lanes a write appends to, and the index a search reads,
// built from the pages the lanes' heads name (closed pages read once, the pages being filled read again when stale).
import type { GuardedShared } from '../core/shared-guard.ts';
import type { MemoryIndex } from './memory.ts';
import {
  appendToPage,
  MAX_LANES,
  type MemoryHead,
  memoryHeadKey,
  memoryPageKey,
  newTag,
  pageContent,
  pageEntries,
  pageLayout,
  type Remembered,
  readMemoryHead,
} from './memory-pages.ts';
import { type BuiltMemory, createBuilt, dropShared, sharedBuilt } from './shared-memory.ts';
import type { SpaceAccess } from './space-cache.ts';

type Warn = (message: string) => void;

/** A scope's memory of past requests, as the learner uses it. */
export interface RequestMemory {
  /** Appends requests to the page a random lane is filling. */
  remember(requests: readonly Remembered[], warn: Warn): Promise<void>;
  /** The index over every page the lanes name, brought up to date. */
  index(warn: Warn): Promise<MemoryIndex>;
  /** The index, when nothing it was built from has changed or gone stale since: a search then reads no key. */
  held(): MemoryIndex | undefined;
  /** Deletes a scope's heads and pages from the store. */
  forget(scope: string): Promise<void>;
  /** Forgets the pages this memory holds in memory, and the isolate's shared indexes of the store (it was cleared). */
  clear(): void;
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

/** Page numbers a lane may reach before the next lane's numbers in the index. */
const LANE_SPAN = 1e6;

/** Deletes a scope's memory heads and pages, on every lane a layout may have used. */
async function forgetRequests(shared: GuardedShared, which: string): Promise<void> {
  // Every lane: another layer of the scope may have a larger byte bound.
  const heads = await Promise.all(
    Array.from({ length: MAX_LANES }, async (_, lane) => ({
      lane,
      ...readMemoryHead(await shared.get(memoryHeadKey(which, lane), () => {})),
    })),
  );
  await Promise.all(
    heads.flatMap(({ lane, first, last }) => [
      shared.delete(memoryHeadKey(which, lane)),
      ...Array.from({ length: last - first + 1 }, (_, k) => shared.delete(memoryPageKey(which, lane, first + k))),
    ]),
  );
}

/** Creates the memory of past requests of one scope; `sets` groups them by tool set too (`setWeight` above 0). */
export function createRequestMemory(
  scope: string,
  memoryBytes: number,
  access: SpaceAccess,
  sets: boolean,
): RequestMemory {
  const { shared, read, keep, fresh } = access;
  const { pageBytes, lanes, pagesPerLane } = pageLayout(memoryBytes);
  const { identity } = shared;
  // The index this layer votes on: the isolate's shared one when the store gives its storage identity and every page
  // carries its content tag, else the layer's own (pages written before tags, a store without identity).
  let own: BuiltMemory | undefined;
  let memory: BuiltMemory | undefined;
  // Per page (lane * LANE_SPAN + page), the value this layer read, whether the page was closed then, and the run of
  // its lane (the head's tag) it was read in.
  const loaded = new Map<number, { value: unknown; closed: boolean; run: unknown }>();
  const headNames = Array.from({ length: lanes }, (_, lane) => memoryHeadKey(scope, lane));
  // What the last index() was built from: each lane's head as read, and the key and value of the page it fills.
  let built: { heads: unknown[]; pages: [key: string, value: unknown][] } | undefined;

  /** Brings `target` to the pages this layer read: pages gone are dropped, pages whose content differs indexed again. */
  function bring(target: BuiltMemory, contents: ReadonlyMap<number, unknown>): MemoryIndex {
    const wanted = new Set(contents.keys());
    for (const id of target.pages.keys()) if (!wanted.has(id)) target.pages.delete(id);
    target.memory.retain(wanted);
    for (const [id, content] of contents) {
      const was = target.pages.get(id);
      if (was === content || (target !== own && laterFilling(was, content))) continue;
      target.memory.load(id, pageEntries(loaded.get(id)?.value));
      target.pages.set(id, content);
    }
    return target.memory;
  }

  /** The index to bring up to date: shared only when every page's content and every lane's run can be told apart. */
  function pick(heads: readonly MemoryHead[], contents: ReadonlyMap<number, unknown>): BuiltMemory {
    const tagged =
      heads.every(({ last, f }) => last === 0 || typeof f === 'string') &&
      [...contents.values()].every((content) => typeof content === 'string');
    if (identity && tagged) return sharedBuilt(identity, scope, memoryBytes, sets);
    // Untagged pages are told apart by the value read, as a layer alone always did.
    own ??= createBuilt(sets);
    return own;
  }

  return {
    async remember(requests, warn) {
      let left = requests;
      // A write starts at a lane picked at random, so that no key takes every write (KV takes one a second), and
      // each page it fills sends the rest to the next lane: a large batch (a busy moment, a bulk import) spreads
      // over the lanes evenly and is kept whole, the bound dropping the oldest pages. It gives up only once several
      // pages in a row took nothing.
      let lane = Math.floor(Math.random() * lanes);
      for (let idle = 0; left.length > 0 && idle < 8; lane = (lane + 1) % lanes) {
        const headName = memoryHeadKey(scope, lane);
        const head = readMemoryHead(await read(headName, warn));
        const n = head.last;
        let rest: Remembered[] = [];
        const key = memoryPageKey(scope, lane, n);
        // The change holds its own batch: a store may replay it after this loop moved on (KV writes under waitUntil).
        const batch = left;
        const page = await shared.update(
          key,
          (current) => {
            const appended = appendToPage(current, batch, pageBytes);
            rest = appended.left;
            return appended.added > 0 ? appended.page : current;
          },
          warn,
        );
        keep(key, page);
        idle = rest.length < left.length ? 0 : idle + 1;
        left = rest;
        if (left.length === 0) break;
        // The page is full: the lane starts its next page, dropping its oldest when it has too many.
        const next = readMemoryHead(
          await shared.update(
            headName,
            (current) => {
              const now = readMemoryHead(current);
              if (now.last > n) return now;
              // A head written anew (first write, or after a clear deleted it) starts a new run of the lane.
              const f = typeof now.f === 'string' ? now.f : newTag();
              return { v: now.v, first: Math.max(now.first, n + 2 - pagesPerLane), last: n + 1, f };
            },
            warn,
          ),
        );
        keep(headName, next);
        const gone = Array.from({ length: Math.max(0, next.first - head.first) }, (_, k) => head.first + k);
        await Promise.all(gone.map((k) => shared.delete(memoryPageKey(scope, lane, k))));
      }
    },

    async index(warn) {
      built = undefined;
      const read0 = await Promise.all(headNames.map((key) => read(key, warn)));
      const heads = read0.map(readMemoryHead);
      const wanted = new Set<number>();
      const stale: [lane: number, n: number, last: boolean][] = [];
      for (const [lane, { first, last, f }] of heads.entries()) {
        for (let n = first; n <= last; n++) {
          const id = lane * LANE_SPAN + n;
          wanted.add(id);
          const had = loaded.get(id);
          // A page read while it was being filled is read once more after it closed, and a closed one again when its
          // lane started a new run (a clear deleted the head, and the same page numbers fill again).
          const current = n === last;
          const hit = current ? fresh(memoryPageKey(scope, lane, n)) : undefined;
          if (!had || (current ? hit?.value !== had.value || !hit : !had.closed || had.run !== f))
            stale.push([lane, n, current]);
        }
      }
      const values = await Promise.all(stale.map(([lane, n]) => read(memoryPageKey(scope, lane, n), warn)));
      // From here to the return nothing awaits: a search of another layer sharing the index never votes on it half
      // brought up to date (it may vote on what this layer read, a view of the store as recent as its own).
      for (const id of loaded.keys()) if (!wanted.has(id)) loaded.delete(id);
      for (const [k, [lane, n, current]] of stale.entries())
        loaded.set(lane * LANE_SPAN + n, { value: values[k], closed: !current, run: heads[lane]?.f });
      const contents = new Map<number, unknown>();
      for (const id of wanted) {
        const value = loaded.get(id)?.value;
        contents.set(id, pageContent(value) ?? value);
      }
      memory = pick(heads, contents);
      const index = bring(memory, contents);
      built = {
        heads: read0,
        pages: heads.map(({ last }, lane) => {
          const key = memoryPageKey(scope, lane, last);
          return [key, loaded.get(lane * LANE_SPAN + last)?.value];
        }),
      };
      return index;
    },

    held() {
      if (!built) return undefined;
      for (const [lane, key] of headNames.entries()) {
        const head = fresh(key);
        if (!head || head.value !== built.heads[lane]) return undefined;
      }
      for (const [key, value] of built.pages) {
        const page = fresh(key);
        if (!page || page.value !== value) return undefined;
      }
      return memory?.memory;
    },

    async forget(which) {
      dropShared(identity, which);
      await forgetRequests(shared, which);
      // Dropped again: another layer may have brought the index back from what it read meanwhile.
      dropShared(identity, which);
    },

    clear() {
      built = undefined;
      own = undefined;
      memory = undefined;
      loaded.clear();
      dropShared(identity);
    },
  };
}
