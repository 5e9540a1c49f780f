// A write of the memory's pages brings the memory's index up to date in the background (src/learn/credit-writer.ts):
// after it, a search finds the index current (it reads nothing and waits for nothing), and the index votes as one
// read afresh from the store does. A layer whose searches do not read the memory leaves the index alone.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { guardShared } from '../../src/core/shared-guard.ts';
import { createCreditWriter } from '../../src/learn/credit-writer.ts';
import { termHash, VOTE } from '../../src/learn/memory.ts';
import type { Remembered } from '../../src/learn/memory-pages.ts';
import { learnSchema } from '../../src/learn/options.ts';
import { createRequestMemory } from '../../src/learn/requests.ts';
import { SET_VOTE } from '../../src/learn/set-vote.ts';
import { createSpaceCache } from '../../src/learn/space-cache.ts';
import { createTableReader } from '../../src/learn/table-reader.ts';
import { createMemoryStore } from '../../src/stores/memory.ts';

const quiet = () => {};
const byName = new Map(['get_forecast', 'send_email', 'read_file', 'calculator'].map((name, id) => [name, id]));
const topics = [
  ['umbrella rain forecast', ['get_forecast']],
  ['send the report by mail', ['send_email', 'read_file']],
  ['add these numbers up', ['calculator']],
] as const;

/** Requests of `sessions` sessions, each asking one of the topics above in its own words. */
const requestsOf = (sessions: number, from = 0): Remembered[] =>
  Array.from({ length: sessions }, (_, i) => {
    const [words, tools] = topics[(from + i) % topics.length] as (typeof topics)[number];
    const terms = [...words.split(' '), `w${from + i}`].map(termHash).sort((a, b) => a - b);
    return { session: 1000 + from + i, turn: 0, terms, tools: [...tools].sort() };
  });

/** A learner's memory and writer over `store`, as createLearner wires them. */
function wired(store: ReturnType<typeof createMemoryStore>, learn: object) {
  const options = v.parse(learnSchema, { scope: 'warm', ...learn }) as NonNullable<v.InferOutput<typeof learnSchema>>;
  const space = createSpaceCache(guardShared(store, { timeoutMs: 0, retryMs: 1000 }), options.halfLife);
  const table = createTableReader(options.scope, space);
  const memory = createRequestMemory(options.scope, options.memoryBytes, space, options.setWeight > 0);
  return { memory, writer: createCreditWriter(options.scope, options, space, table, memory) };
}

describe('a write of the memory', () => {
  it('leaves the index current, voting as one read afresh', async () => {
    const store = createMemoryStore();
    const { memory, writer } = wired(store, {});
    for (let round = 0; round < 6; round++) {
      await writer.enqueue(undefined, requestsOf(20, round * 20), quiet, true);
      await writer.flush();
      const held = memory.held();
      expect(held).toBeDefined();
      // A memory over a copy of the store's values, sharing nothing with the one written through.
      const copy = createMemoryStore();
      for (const [key, value] of await dump(store)) await copy.shared?.update(key, () => structuredClone(value));
      const fresh = await wired(copy, {}).memory.index(quiet);
      for (const [words] of topics) {
        const terms = words.split(' ').map(termHash);
        // Each index numbers the tools as it meets them: compared by the catalogue's ids.
        const votesOf = (index: NonNullable<typeof held>) => {
          const { tools, votes, count } = index.vote(terms, VOTE);
          const ids = index.idsIn(byName);
          return Array.from({ length: count }, (_, i) => [ids[tools[i] as number], votes[i]]);
        };
        const want = votesOf(fresh);
        expect(want.length).toBeGreaterThan(0);
        expect(votesOf(held as NonNullable<typeof held>)).toEqual(want);
        expect(held?.sets?.reliability(SET_VOTE)).toBe(fresh.sets?.reliability(SET_VOTE));
      }
    }
  });

  it('leaves the index alone for a layer whose searches do not read the memory', async () => {
    const { memory, writer } = wired(createMemoryStore(), { memoryWeight: 0, setWeight: 0, modelWeight: 0 });
    await writer.enqueue(undefined, requestsOf(20), quiet, true);
    await writer.flush();
    expect(memory.held()).toBeUndefined();
  });
});

/** The memory's heads and pages in a store (a lane's head is written once its first page closes). */
async function dump(store: ReturnType<typeof createMemoryStore>): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [];
  for (let lane = 0; lane < 4; lane++) {
    const key = `learn:warm:m${lane}`;
    const head = await store.shared?.get(key);
    if (head !== undefined) out.push([key, head]);
    for (let n = 0; n < 64; n++) {
      const page = await store.shared?.get(`${key}:${n}`);
      if (page !== undefined) out.push([`${key}:${n}`, page]);
    }
  }
  return out;
}
