// The memory of past requests over the shared space: the index a search reads, built from the pages the lanes' heads
// name (closed pages read once, the pages being filled read again when stale), and the writes (memory-writes.ts).
import type { MemoryIndex } from './memory.ts';
import {
  type MemoryHead,
  memoryHeadKey,
  memoryPageKeys,
  pageContent,
  pageLayout,
  type Remembered,
  readMemoryHead,
} from './memory-pages.ts';
import { appendRequests, forgetRequests } from './memory-writes.ts';
import { scopeKey } from './scope-key.ts';
import {
  type BuiltFrom,
  type BuiltMemory,
  bringTo,
  createBuilt,
  dropShared,
  heldBuilt,
  sharedBuilt,
} from './shared-memory.ts';
import { REFRESH_MS, type SpaceCache } from './space-cache.ts';

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
  /**
   * Forgets the pages this memory holds in memory, and the isolate's shared index of the scope (of every scope of the
   * store with `store`: the store was cleared).
   */
  clear(store?: boolean): void;
}

/** Page numbers a lane may reach before the next lane's numbers in the index. */
const LANE_SPAN = 1e6;

/** Creates the memory of past requests of one scope; `sets` groups them by tool set too (`setWeight` above 0). */
export function createRequestMemory(
  scope: string,
  memoryBytes: number,
  access: SpaceCache,
  sets: boolean,
): RequestMemory {
  const { shared, read, drop, fresh } = access;
  const layout = pageLayout(memoryBytes);
  const { lanes } = layout;
  const { identity } = shared;
  // The index this layer votes on: the isolate's shared one when the store gives its storage identity and every page
  // carries its content tag, else the layer's own (pages written before tags, a store without identity).
  let own: BuiltMemory | undefined;
  let memory: BuiltMemory | undefined;
  // Per page (lane * LANE_SPAN + page), the value this layer read, whether the page was closed then, the run of its
  // lane (the head's tag) it was read in, and its content (memory-pages.ts `pageContent`, or the value when it has
  // none): made once, when read, so each later reading compares the very string the index holds, not a new one.
  const loaded = new Map<number, { value: unknown; closed: boolean; run: unknown; content: unknown }>();
  const headNames = Array.from({ length: lanes }, (_, lane) => memoryHeadKey(scope, lane));
  const pageKey = memoryPageKeys(scope);
  const base = scopeKey(scope);
  // What the last index() was built from: each lane's head as read, and the key and value of the page it fills.
  let built: BuiltFrom | undefined;
  // The reading under way, which searches asking at the same time wait for.
  let indexing: Promise<MemoryIndex> | undefined;

  // The values last found current: they stay so while the cache is unchanged and none of the values has expired.
  let verified: { from: BuiltFrom | undefined; changes: number; until: number } = {
    from: undefined,
    changes: -1,
    until: 0,
  };

  /** Whether each head and page being filled `from` names is, among the values read lately, the very value in it. */
  function current(from: BuiltFrom): boolean {
    const now = Date.now();
    const changes = access.changes(base);
    if (verified.from === from && verified.changes === changes && now < verified.until) return true;
    let until = Number.POSITIVE_INFINITY;
    for (const [lane, key] of headNames.entries()) {
      const head = fresh(key, now);
      if (!head || head.value !== from.heads[lane]) return false;
      until = Math.min(until, head.at + REFRESH_MS);
    }
    for (const [key, value] of from.pages) {
      const page = fresh(key, now);
      if (!page || page.value !== value) return false;
      until = Math.min(until, page.at + REFRESH_MS);
    }
    verified = { from, changes, until };
    return true;
  }

  /** The isolate's index this layer brought up last, if it shared one (given back should the isolate have let it go). */
  const lastShared = (): BuiltMemory | undefined => (memory === own ? undefined : memory);

  /** The index to bring up to date: shared only when every page's content and every lane's run can be told apart. */
  function pick(heads: readonly MemoryHead[], contents: ReadonlyMap<number, unknown>): BuiltMemory {
    let tagged = heads.every(({ last, f }) => last === 0 || typeof f === 'string');
    for (const content of contents.values()) if (typeof content !== 'string') tagged = false;
    if (identity && tagged) return sharedBuilt(identity, scope, memoryBytes, sets, lastShared());
    // Untagged pages are told apart by the value read, as a layer alone always did.
    own ??= createBuilt(sets);
    return own;
  }

  /** Reads the heads and the pages not held, and brings the index this layer votes on to them. */
  async function readIndex(warn: Warn): Promise<MemoryIndex> {
    // The pages the lanes were filling when this layer (or one sharing the isolate's index) last read the heads, read
    // alongside the heads rather than after them: on KV a read is a round trip. A page the heads still name as being
    // filled stands as read. One they name as closed since may have been read before its last append (a lane's
    // writer appends, then moves the head): it is used as a page being filled, dropped from the values read lately,
    // and read again, closed, by the next reading.
    const from = built ?? (identity ? heldBuilt(identity, scope, memoryBytes, sets)?.from : undefined);
    const early = new Map((from?.pages ?? []).map(([key]) => [key, read(key, warn)]));
    built = undefined;
    const [read0, earlyValues] = await Promise.all([
      Promise.all(headNames.map((key) => read(key, warn))),
      Promise.all(early.values()),
    ]);
    const heads = read0.map(readMemoryHead);
    const runOf = (id: number) => heads[Math.floor(id / LANE_SPAN)]?.f;
    const filling = new Set(heads.map(({ last }, lane) => pageKey(lane, last)));
    const readEarly = new Map<string, unknown>();
    for (const [k, key] of [...early.keys()].entries()) {
      const value = earlyValues[k];
      if (filling.has(key)) continue;
      readEarly.set(key, value);
      drop(key, value);
    }
    // First with the isolate's shared index, whose closed pages need no read; again without, should it change
    // while this layer read (or turn out not to fit this layer's pages).
    for (let trusting = identity !== undefined; ; trusting = false) {
      const trusted = trusting && identity ? sharedBuilt(identity, scope, memoryBytes, sets, lastShared()) : undefined;
      const isTrusted = (id: number) => {
        const run = runOf(id);
        return typeof run === 'string' && trusted?.closed.get(id) === run && typeof trusted.pages.get(id) === 'string';
      };
      const wanted = new Set<number>();
      const skipped: number[] = [];
      const stale: [lane: number, n: number, last: boolean][] = [];
      for (const [lane, { first, last, f }] of heads.entries()) {
        for (let n = first; n <= last; n++) {
          const id = lane * LANE_SPAN + n;
          wanted.add(id);
          const had = loaded.get(id);
          // A page read while it was being filled is read once more after it closed, and a closed one again when
          // its lane started a new run (a clear deleted the head, and the same page numbers fill again).
          const current = n === last;
          const hit = current ? fresh(pageKey(lane, n)) : undefined;
          if (had && (current ? hit?.value === had.value && hit : had.closed && had.run === f)) continue;
          if (current || !isTrusted(id)) stale.push([lane, n, current]);
          else {
            // What this layer read of it before is older than the index's: the index's stands for it.
            loaded.delete(id);
            skipped.push(id);
          }
        }
      }
      const values = await Promise.all(
        stale.map(([lane, n]) => {
          const key = pageKey(lane, n);
          return readEarly.has(key) ? readEarly.get(key) : read(key, warn);
        }),
      );
      // From here to the return nothing awaits: a search of another layer sharing the index never votes on it half
      // brought up to date (it may vote on what this layer read, a view of the store as recent as its own).
      for (const id of loaded.keys()) if (!wanted.has(id)) loaded.delete(id);
      for (const [k, [lane, n, current]] of stale.entries())
        loaded.set(lane * LANE_SPAN + n, {
          value: values[k],
          content: pageContent(values[k]) ?? values[k],
          closed: !current && !readEarly.has(pageKey(lane, n)),
          run: heads[lane]?.f,
        });
      if (!skipped.every(isTrusted)) continue;
      const contents = new Map<number, unknown>();
      const closedIn = new Map<number, string>();
      for (const id of wanted) {
        const had = loaded.get(id);
        const content = had ? had.content : trusted?.pages.get(id);
        contents.set(id, content);
        const run = runOf(id);
        if ((had ? had.closed : true) && typeof run === 'string') closedIn.set(id, run);
      }
      memory = pick(heads, contents);
      if (memory !== trusted && skipped.length > 0) continue;
      const index = bringTo(memory, memory !== own, contents, closedIn, (id) => loaded.get(id)?.value);
      built = {
        heads: read0,
        pages: heads.map(({ last }, lane) => {
          const key = pageKey(lane, last);
          return [key, loaded.get(lane * LANE_SPAN + last)?.value] as const;
        }),
      };
      if (memory !== own) memory.from = built;
      return index;
    }
  }

  return {
    remember: (requests, warn) => appendRequests(scope, layout, access, requests, warn),

    index(warn) {
      // Searches in flight at once share one reading: the first search of a layer asked several at a time reads once.
      indexing ??= readIndex(warn).finally(() => {
        indexing = undefined;
      });
      return indexing;
    },

    held() {
      if (built && current(built)) return memory?.memory;
      // The isolate's index, when a layer brought it to the very values this one would read (a Worker's next request
      // within the window): bringing it to them again would change nothing.
      const shared = identity && heldBuilt(identity, scope, memoryBytes, sets);
      return shared?.from && current(shared.from) ? shared.memory : undefined;
    },

    async forget(which) {
      dropShared(identity, which);
      await forgetRequests(shared, which);
      // Dropped again: another layer may have brought the index back from what it read meanwhile.
      dropShared(identity, which);
    },

    clear(store = false) {
      built = undefined;
      indexing = undefined;
      own = undefined;
      memory = undefined;
      loaded.clear();
      dropShared(identity, store ? undefined : scope);
    },
  };
}
