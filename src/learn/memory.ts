// The memory of past requests: what the per-term table cannot hold. Each remembered request keeps its terms (hashed,
// as the ranker tokenized them) and the tools it used together; a new search finds the most similar requests and
// lets them vote for their tools, but only when they are similar enough to agree on something.
import { fnv1a } from '../search/fnv.ts';
import { createEntries, extendPage, loadPage, type MemoryEntries, retainPages } from './memory-entries.ts';
import { createModel, type MemoryModel } from './memory-model.ts';
import type { Remembered } from './memory-pages.ts';
import { createVote, type VoteSettings, type Votes } from './memory-vote.ts';
import { createSetIndex, type SetIndex, type SetVoteSettings } from './set-vote.ts';

export { termHash } from './term-hash.ts';

/** A session as the memory keeps it: hashed, enough to tell sessions apart and never to name one. */
export const sessionHash = (sessionId: string): number => fnv1a(`\u0000${sessionId}`);

/** The memory's vote as shipped (bench/TUNING.md: what was tried, and its weight chosen under leave-one-set-out). */
export const VOTE: VoteSettings = { neighbours: 20, gate: 0.3, agree: 2, half: 2, calibrate: 2 };

/** The memory of one scope as a search reads it: pages loaded in order, indexed by hashed term. */
export interface MemoryIndex {
  /** Replaces page `n` with what the store holds (a page may grow until the next one starts). */
  load(n: number, entries: readonly Remembered[]): void;
  /** Appends to page `n` the requests stored after those it holds (the page grew: memory-pages.ts `heldPrefix`). */
  extend(n: number, entries: readonly Remembered[]): void;
  /** Forgets every loaded page not in `pages` (a lane drops its oldest as the bound requires). */
  retain(pages: { has(n: number): boolean }): void;
  /** The tools the requests most similar to `terms` used, voted (by their numbers; valid until the next vote). None when none is similar enough. */
  vote(terms: readonly number[], settings: VoteSettings): Votes;
  /**
   * Brings up to date what the next votes would first (the postings' layout and the memory's reliability with
   * `settings`; the sets' pairs by term and their reliability with `sets`), so that a write does it in the background
   * instead of the next search.
   */
  warm(settings: VoteSettings | undefined, sets: SetVoteSettings | undefined): void;
  /** Per tool number, the tool's id in the catalogue whose names are `byName` (-1 for a tool it lacks). */
  idsIn(byName: ReadonlyMap<string, number>): Int32Array;
  /** The same requests grouped by the whole set of tools each used, loaded and forgotten with them (when asked for). */
  readonly sets: SetIndex | undefined;
  /** A model trained on the same requests (memory-model.ts): it votes once it first trained. */
  readonly model: MemoryModel;
  /**
   * Trains the model in the background, in slices of a macrotask each, if it is due (the memory changed enough since
   * it last trained, or an epoch is under way); settles once it is caught up (at once when it is).
   */
  train(): Promise<void>;
  /** Starts training in the background if it is due and no chain of slices is under way (or one stopped: ALIVE_MS). */
  kick(): void;
  /** Remembered requests, each counted once however often it grew. */
  readonly size: number;
  /** The terms its remembered requests hold, summed: what the index's size in memory grows with (about 150 bytes each). */
  readonly terms: number;
}

/**
 * The ids of a memory's tools in each catalogue, by tool number: kept per catalogue's names, and extended as tools are
 * numbered, so a vote maps none of its tools' names.
 */
function createToolIds(s: MemoryEntries): (byName: ReadonlyMap<string, number>) => Int32Array {
  const byCatalogue = new WeakMap<ReadonlyMap<string, number>, { numbering: number; ids: Int32Array; size: number }>();
  return (byName) => {
    const { toolNames, numbering } = s;
    let known = byCatalogue.get(byName);
    if (!known || known.numbering !== numbering) {
      known = { numbering, ids: new Int32Array(0), size: 0 };
      byCatalogue.set(byName, known);
    }
    if (known.size < toolNames.length) {
      if (known.ids.length < toolNames.length) {
        const ids = new Int32Array(toolNames.length * 2);
        ids.set(known.ids);
        known.ids = ids;
      }
      for (let t = known.size; t < toolNames.length; t++) known.ids[t] = byName.get(toolNames[t] as string) ?? -1;
      known.size = toolNames.length;
    }
    return known.ids;
  };
}

/**
 * Pair updates a slice of training takes (about 3 ms here): a slice is a macrotask, so a server's requests and a
 * page's events run between slices (a Worker's clock stands still while it runs, so the budget is not in time).
 */
const SLICE = 1_000_000;

/** How long after a chain's last sign of life a kick still trusts it to go on (a slice takes a few milliseconds). */
const ALIVE_MS = 1000;

/** Creates an empty memory index; with `sets`, its requests are grouped by tool set as they load. */
export function createMemoryIndex(sets = true): MemoryIndex {
  const entries = createEntries();
  const { vote, warm } = createVote(entries);
  const bySet = sets ? createSetIndex(entries) : undefined;
  const model = createModel(entries);
  // Chains of slices under way, and when one last started or ran a slice: a chain started in a Worker's request
  // stops when that request ends (and never settles), so a kick long after the last sign of one starts another.
  let running = 0;
  let beat = 0;
  /** A chain of slices, a macrotask each, until the model is caught up (whichever chains ran them); settles then. */
  const chain = (): Promise<void> =>
    new Promise<void>((resolve) => {
      running++;
      beat = Date.now();
      const slice = () => {
        let more = false;
        try {
          more = model.train(SLICE);
          beat = Date.now();
        } finally {
          if (more) setTimeout(slice, 0);
          else {
            running--;
            resolve();
          }
        }
      };
      setTimeout(slice, 0);
    });
  const train = (): Promise<void> => (model.due() ? chain() : Promise.resolve());
  function kick(): void {
    if (model.due() && !(running > 0 && Date.now() - beat < ALIVE_MS)) void chain();
  }
  return {
    load: (n, loaded) => loadPage(entries, n, loaded),
    extend: (n, added) => extendPage(entries, n, added),
    retain: (keep) => retainPages(entries, keep),
    vote,
    warm(settings, setSettings) {
      if (settings) warm(settings);
      if (bySet && setSettings) bySet.warm(setSettings);
    },
    idsIn: createToolIds(entries),
    sets: bySet,
    model,
    train,
    kick,
    get size() {
      return entries.entries.length - entries.dead;
    },
    get terms() {
      return entries.totalLength;
    },
  };
}
