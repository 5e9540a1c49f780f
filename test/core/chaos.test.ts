// A store that fails half its calls, under concurrent rounds on many sessions: nothing discovered is lost once it heals.
import { createMemoryStore, createToolSearch, type DiscoveredStore, type Message, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, recordingLogger } from './fixtures.ts';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const tools: Tool[] = Array.from({ length: 120 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Does task ${i}`,
  parameters: { type: 'object', properties: {} },
}));

/** Fails calls at `rate`: rejected before the write, rejected after it, thrown synchronously, or hung. */
function chaotic(next: () => number) {
  const inner = createMemoryStore({ maxSessions: 10_000 });
  const state = { rate: 0.5 };
  const fault = (): 'before' | 'after' | 'sync' | 'hang' | undefined => {
    if (next() >= state.rate) return undefined;
    return (['before', 'after', 'sync', 'hang'] as const)[Math.floor(next() * 4)];
  };
  // Random latency, so merge-backs are in flight while other rounds of the same session run.
  const later = <T>(work: () => Promise<T>) =>
    new Promise<void>((resolve) => setTimeout(resolve, Math.floor(next() * 3))).then(work);
  const run = <T>(direct: () => Promise<T>): Promise<T> => {
    const work = () => later(direct);
    const kind = fault();
    if (kind === 'sync') throw new Error('closed');
    if (kind === 'hang') return new Promise<T>(() => {});
    if (kind === 'before') return Promise.reject(new Error('503'));
    if (kind === 'after') return work().then(() => Promise.reject(new Error('lost reply')));
    return work();
  };
  const store: DiscoveredStore = {
    name: 'chaotic',
    get: (id) => run(() => inner.get(id)),
    update: (id, apply) => run(() => inner.update(id, apply)),
    delete: (id) => inner.delete(id),
    clear: () => inner.clear(),
  };
  return { store, inner, state };
}

describe('a store failing half its calls', () => {
  it.each([11, 12, 13])('loses nothing discovered once it heals (seed %i)', async (seed) => {
    const next = random(seed);
    const { store, inner, state } = chaotic(next);
    const layer = createToolSearch({
      store,
      logger: recordingLogger(),
      maxDiscoveredKeep: 0,
      storeTimeoutMs: 10,
      storeRetryMs: 2,
    });
    const sessions = Array.from({ length: 24 }, (_, i) => `session-${seed}-${i}`);
    const histories = new Map<string, Message[]>(sessions.map((id) => [id, []]));
    const expected = new Map<string, Set<string>>(sessions.map((id) => [id, new Set()]));
    let calls = 0;
    for (let wave = 0; wave < 30; wave++) {
      // One to three rounds of each session at once: a merge-back may be in flight while the session finds more.
      const rounds = sessions.flatMap((sessionId) => Array.from({ length: Math.floor(next() * 4) }, () => sessionId));
      await Promise.all(
        rounds.map(async (sessionId) => {
          const pick = `tool_${Math.floor(next() * tools.length)}`;
          const history = histories.get(sessionId) as Message[];
          if (next() < 0.5) {
            const found = await layer.search({ sessionId, tools }, { query: pick, limit: 1 });
            for (const tool of 'tools' in found ? found.tools : []) expected.get(sessionId)?.add(tool.name);
          } else {
            history.push(...callAndResult(`c${calls++}`, pick, 'done'));
            expected.get(sessionId)?.add(pick);
            const round = await layer.prepare({ sessionId, tools, messages: [...history] });
            expect(round.discovered).toEqual(expect.arrayContaining([pick]));
          }
        }),
      );
    }
    state.rate = 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const sessionId of sessions) {
      const round = await layer.prepare({ sessionId, tools, messages: histories.get(sessionId) });
      const want = [...(expected.get(sessionId) as Set<string>)];
      expect(round.discovered.sort()).toEqual(want.sort());
      const stored = (await inner.get(sessionId)) as { order: string[] } | undefined;
      expect([...(stored?.order ?? [])].sort()).toEqual(want.sort());
    }
  });
});
