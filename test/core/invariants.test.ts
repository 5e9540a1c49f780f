// Randomised sessions (seeded, so failures replay) checking the rules that must hold after every round.
import { createMemoryStore, createToolSearch, type Message, SEARCH_TOOL_NAME } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, names, recordingLogger, searchTurn } from './fixtures.ts';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

describe('invariants over random sessions', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i', async (seed) => {
    const next = random(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const keep = pick([0, 1, 3, 5]);
    const store = createMemoryStore();
    const layer = createToolSearch({
      logger: recordingLogger(),
      store,
      maxDiscoveredKeep: keep,
      alwaysDirectTools: ['web_search'],
    });
    const pool = names(catalogue).filter((n) => n !== 'web_search');
    let history: Message[] = [];
    let previous: string[] = [];
    for (let round = 0; round < 40; round++) {
      const roll = next();
      if (roll < 0.35) history.push(...searchTurn(`s${round}`, [pick(pool), pick(pool)]));
      else if (roll < 0.6) history.push(...callAndResult(`c${round}`, pick(pool), 'ok'));
      else if (roll < 0.7)
        history = history.slice(Math.floor(history.length / 2)); // context trimming
      else if (roll < 0.8)
        await layer.search({ sessionId: 's', tools: catalogue }, { query: pick(['email', 'file', 'weather', 'list']) });
      const out = await layer.prepare({ sessionId: 's', tools: [...catalogue], messages: [...history] });
      const { discovered } = out;
      // the set is bounded and holds each name once
      if (keep > 0) expect(discovered.length).toBeLessThanOrEqual(keep);
      expect(new Set(discovered).size).toBe(discovered.length);
      // exposure: search tool, direct tool, then the discovered set in order, each once
      expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'web_search', ...discovered]);
      // append-only: what survives keeps its relative order
      const survivors = previous.filter((name) => discovered.includes(name));
      expect(discovered.slice(0, survivors.length)).toEqual(survivors);
      // replaying the same round changes nothing
      const before = await store.get('s');
      const again = await layer.prepare({ sessionId: 's', tools: catalogue, messages: history });
      expect(again.discovered).toEqual(discovered);
      expect(await store.get('s')).toBe(before);
      previous = discovered;
    }
  });
});
