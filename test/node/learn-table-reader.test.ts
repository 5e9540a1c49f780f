// The table's reader (src/learn/table-reader.ts) holds each term's values in one flat table by the term's hash: what
// it gives from there (heldFor) is what it reads from the store afresh (learnedFor), for terms whose hashes collide,
// past the table's growth, for terms with no entry and tools a catalogue lacks, and for each of two catalogues.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { type Catalogue, catalogueOf } from '../../src/core/catalogue.ts';
import { loadSearch } from '../../src/core/search-loader.ts';
import type { Query } from '../../src/learn/query-terms.ts';
import { addLearnedScores, type Learned } from '../../src/learn/score.ts';
import type { SpaceCache } from '../../src/learn/space-cache.ts';
import { type Posting, SHARDS, TABLE_VERSION, type TermEntry } from '../../src/learn/table.ts';
import { createTableReader } from '../../src/learn/table-reader.ts';

/** A space's `beside`: what its readers keep, by name, made the first time (each test space has its own). */
function besideOf(): SpaceCache['beside'] {
  const kept = new Map<string, unknown>();
  return <T>(name: string, make: () => T): T => {
    if (!kept.has(name)) kept.set(name, make());
    return kept.get(name) as T;
  };
}

const names = Array.from({ length: 12 }, (_, i) => `tool_${i}`);
const toolsOf = (order: readonly string[]): Tool[] =>
  order.map((name) => ({ name, description: `${name} plover`, inputSchema: { type: 'object', properties: {} } }));
const halfLife = 50;

// 150 terms on 7 hashes (a few collide in every slot), every third with no entry; postings name tools the
// catalogues lack ("gone") and credits of 0.
const terms = Array.from({ length: 150 }, (_, k) => `term${k}`);
const hashOf = (k: number): number => (k % 7) * 1_000_003;
const entryOf = (k: number): TermEntry | undefined => {
  if (k % 3 === 0) return undefined;
  const postings: Posting[] = [
    [names[k % 12] as string, 1 + (k % 5), 2, 90 - (k % 4)],
    ['gone', 2, 3, 90],
    [names[(k + 5) % 12] as string, k % 2, 1, 80],
  ];
  return [3 + (k % 4), 85, postings];
};

/** A space holding the clock (u = 100) and the shards of the terms above, every value read just now. */
function spaceOf(clockNames: readonly string[], shardNames: readonly string[]): SpaceCache {
  const values = new Map<string, unknown>();
  for (const [j, key] of clockNames.entries()) values.set(key, { v: TABLE_VERSION, u: j === 0 ? 100 : 0 });
  const shards = Array.from({ length: SHARDS }, () => ({}) as Record<string, TermEntry>);
  for (const [k, term] of terms.entries()) {
    const entry = entryOf(k);
    if (entry) (shards[hashOf(k) % SHARDS] as Record<string, TermEntry>)[term] = entry;
  }
  for (const [i, key] of shardNames.entries()) values.set(key, { v: TABLE_VERSION, x: shards[i] });
  const at = Date.now();
  return {
    fresh: (key: string) => (values.has(key) ? { value: values.get(key), at } : undefined),
    read: async (key: string) => values.get(key),
    changes: () => 0,
    beside: besideOf(),
  } as unknown as SpaceCache;
}

/** The values a search adds from `learned`, by tool name. */
function valuesOf(learned: Learned, catalogue: Catalogue): Map<string, number> {
  const into = { value: new Float64Array(catalogue.tools.length), ids: [] as number[], count: 0 };
  addLearnedScores(learned, 1, into);
  return new Map(
    into.ids.slice(0, into.count).map((id) => [catalogue.tools[id]?.name as string, into.value[id] as number]),
  );
}

// Two catalogues for both suites: all the names, and most of them in another order.
let catalogues: Catalogue[];
beforeAll(async () => {
  await loadSearch();
  catalogues = [catalogueOf(toolsOf(names)), catalogueOf(toolsOf([...names].reverse().slice(2)))];
});

describe("the table reader's held values", () => {
  it('are what a read afresh gives, term by term, for each catalogue in turn', async () => {
    const probe = createTableReader('reader-test', spaceOf([], []));
    const reader = createTableReader('reader-test', spaceOf(probe.clockNames, probe.shardNames));
    // Queries of 10 terms, one repeated, walking all the terms so the table grows.
    const queries: Query[] = Array.from({ length: 15 }, (_, q) => {
      const ks = Array.from({ length: 10 }, (_, j) => (q * 10 + j) % terms.length);
      ks.push(ks[0] as number);
      const hashes = ks.map(hashOf);
      return {
        terms: ks.map((k) => terms[k] as string),
        hashes,
        first: ks.map((_, j) => j < 10),
        memoryHashes: hashes,
      };
    });
    for (let pass = 0; pass < 3; pass++)
      for (const catalogue of catalogues)
        for (const query of queries) {
          const held = reader.heldFor(query, catalogue, halfLife);
          expect(held).toBeDefined();
          const read = await reader.learnedFor(query, catalogue, halfLife, () => {});
          expect(valuesOf(held as Learned, catalogue)).toEqual(valuesOf(read, catalogue));
          expect((held as Learned).mass).toBe(read.mass);
        }
  });
});

describe("the table reader's views by catalogue", () => {
  const queryOf = (q: number): Query => {
    const ks = Array.from({ length: 10 }, (_, j) => (q * 10 + j) % terms.length);
    const hashes = ks.map(hashOf);
    return { terms: ks.map((k) => terms[k] as string), hashes, first: ks.map(() => true), memoryHashes: hashes };
  };

  it('hold each catalogue searched lately: searches in turn over them resolve no term again', () => {
    const probe = createTableReader('reader-views-test', spaceOf([], []));
    const reader = createTableReader('reader-views-test', spaceOf(probe.clockNames, probe.shardNames));
    const queries = [0, 1, 2].map(queryOf);
    for (const catalogue of catalogues) for (const query of queries) reader.heldFor(query, catalogue, halfLife);
    // A term resolved anew looks its tools up by name: a term whose values are held does not.
    const lookups = catalogues.map((catalogue) => vi.spyOn(catalogue.byName, 'get'));
    try {
      for (let pass = 0; pass < 3; pass++)
        for (const catalogue of catalogues)
          for (const query of queries) expect(reader.heldFor(query, catalogue, halfLife)).toBeDefined();
      for (const lookup of lookups) expect(lookup).not.toHaveBeenCalled();
    } finally {
      for (const lookup of lookups) lookup.mockRestore();
    }
  });

  it('give what a read afresh gives, past the catalogues they hold', async () => {
    const probe = createTableReader('reader-views-many', spaceOf([], []));
    const reader = createTableReader('reader-views-many', spaceOf(probe.clockNames, probe.shardNames));
    // Six catalogues (more than the four a reader holds), each lacking other tools, searched in turn.
    const many = Array.from({ length: 6 }, (_, i) => catalogueOf(toolsOf(names.filter((_, j) => j % 6 !== i))));
    for (let pass = 0; pass < 3; pass++)
      for (const catalogue of many)
        for (const query of [pass, pass + 5].map(queryOf)) {
          const held = reader.heldFor(query, catalogue, halfLife) as Learned;
          expect(held).toBeDefined();
          const read = await reader.learnedFor(query, catalogue, halfLife, () => {});
          expect(valuesOf(held, catalogue)).toEqual(valuesOf(read, catalogue));
          expect(held.mass).toBe(read.mass);
        }
  });
});

/**
 * A space a test changes as commits would: each change writes new shard objects (sharing the entries and postings it
 * keeps) and counts one more change.
 */
function changingSpace(clockNames: readonly string[], shardNames: readonly string[]) {
  const values = new Map<string, unknown>();
  let changes = 0;
  let u = 100;
  const shards = Array.from({ length: SHARDS }, () => ({}) as Record<string, TermEntry>);
  for (const [k, term] of terms.entries()) {
    const entry = entryOf(k);
    if (entry) (shards[hashOf(k) % SHARDS] as Record<string, TermEntry>)[term] = entry;
  }
  const write = () => {
    for (const [j, key] of clockNames.entries()) values.set(key, { v: TABLE_VERSION, u: j === 0 ? u : 0 });
    for (const [i, key] of shardNames.entries()) values.set(key, { v: TABLE_VERSION, x: { ...shards[i] } });
    changes++;
  };
  write();
  const at = Date.now();
  const space = {
    fresh: (key: string) => (values.has(key) ? { value: values.get(key), at } : undefined),
    read: async (key: string) => values.get(key),
    changes: () => changes,
    beside: besideOf(),
  } as unknown as SpaceCache;
  /** Sets term k's entry (undefined: removes it), moves the clock by `steps`, and writes. */
  const change = (edits: ReadonlyMap<number, TermEntry | undefined>, steps: number) => {
    for (const [k, entry] of edits) {
      const x = shards[hashOf(k) % SHARDS] as Record<string, TermEntry>;
      if (entry) x[terms[k] as string] = entry;
      else delete x[terms[k] as string];
    }
    u += steps;
    write();
  };
  /** A copy of every value, sharing no object with the space (what a reader that never read it would resolve). */
  const copy = (): SpaceCache => {
    const cloned = structuredClone(values);
    return {
      fresh: (key: string) => (cloned.has(key) ? { value: cloned.get(key), at } : undefined),
      read: async (key: string) => cloned.get(key),
      changes: () => 0,
      beside: besideOf(),
    } as unknown as SpaceCache;
  };
  return { space, change, copy, entry: (k: number) => shards[hashOf(k) % SHARDS]?.[terms[k] as string] };
}

describe("the table reader's values after changes", () => {
  it('are what a reader that never read the store gives, after entries change and the clock moves', async () => {
    const probe = createTableReader('reader-change-test', spaceOf([], []));
    const store = changingSpace(probe.clockNames, probe.shardNames);
    const reader = createTableReader('reader-change-test', store.space);
    const queries: Query[] = Array.from({ length: 15 }, (_, q) => {
      const ks = Array.from({ length: 10 }, (_, j) => (q * 10 + j) % terms.length);
      const hashes = ks.map(hashOf);
      return { terms: ks.map((k) => terms[k] as string), hashes, first: ks.map(() => true), memoryHashes: hashes };
    });
    // Each check starts with the catalogue the last one ended with: a term's last resolution is then for it.
    let order = catalogues;
    const check = async () => {
      for (const catalogue of order)
        for (const query of queries) {
          const held = reader.heldFor(query, catalogue, halfLife) as Learned;
          expect(held).toBeDefined();
          const fresh = createTableReader('reader-change-test', store.copy());
          const read = await fresh.learnedFor(query, catalogue, halfLife, () => {});
          expect(valuesOf(held, catalogue)).toEqual(valuesOf(read, catalogue));
          expect(held.mass).toBe(read.mass);
        }
      order = [...order].reverse();
    };
    await check();
    for (let step = 1; step <= 4; step++) {
      const edits = new Map<number, TermEntry | undefined>();
      for (let k = step; k < terms.length; k += 5) {
        const was = store.entry(k);
        const postings = was?.[2] ?? [];
        const kind = (k + step) % 5;
        // The same postings (the same arrays) in another order; the same tools with new numbers; one tool for
        // another; no entry at all; and an entry for a term that had none.
        if (kind === 0) edits.set(k, [3, 85 + step, [...postings].reverse()]);
        else if (kind === 1)
          edits.set(k, [4, 90, postings.map(([tool, c, m]) => [tool, c + 1, m, 100 + step] as Posting)]);
        else if (kind === 2)
          edits.set(k, [2, 90, [[names[(k + step) % 12] as string, 2, 2, 100 + step], ...postings.slice(1)]]);
        else if (kind === 3) edits.set(k, undefined);
        else edits.set(k, [1, 100, [[names[step] as string, 1, 1, 100], ...postings]]);
      }
      store.change(edits, step % 2);
      await check();
    }
  });
});
