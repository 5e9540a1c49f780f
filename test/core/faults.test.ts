// Defects of issue 14 in the store guard: each test failed on the code before the fix.
import { createMemoryStore, createToolSearch, type DiscoveredStore, RECORD_VERSION } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger, searchTurn } from './fixtures.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const orderOf = (value: unknown) => (value as { order?: string[] } | undefined)?.order;

/** A memory store whose calls can fail, per session, and whose updates can be held until released. */
function controllable() {
  const inner = createMemoryStore();
  const failing = new Set<string>();
  let held: Promise<void> | undefined;
  const gate = async (id: string) => {
    if (failing.has(id) || failing.has('*')) throw new Error('503 unavailable');
  };
  const store: DiscoveredStore = {
    name: 'controllable',
    get: async (id) => {
      await gate(id);
      return inner.get(id);
    },
    update: async (id, apply) => {
      await gate(id);
      if (held) await held;
      return inner.update(id, apply);
    },
    delete: (id) => inner.delete(id),
    clear: () => inner.clear(),
  };
  const hold = () => {
    let release = () => {};
    held = new Promise<void>((resolve) => {
      release = () => {
        held = undefined;
        resolve();
      };
    });
    return release;
  };
  return { store, inner, failing, hold };
}

describe('store faults (issue 14)', () => {
  it('defect 1: a store method that throws synchronously leaves no rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    type Listen = (event: string, listener: (reason: unknown) => void) => void;
    const proc = (globalThis as { process?: { on: Listen; off: Listen } }).process;
    proc?.on('unhandledRejection', onUnhandled);
    try {
      const sync: DiscoveredStore = {
        name: 'sync',
        get() {
          throw new Error('closed');
        },
        update() {
          throw new Error('closed');
        },
        delete() {
          throw new Error('closed');
        },
        clear() {
          throw new Error('closed');
        },
      };
      const logger = recordingLogger();
      const layer = createToolSearch({ store: sync, logger, storeTimeoutMs: 20 });
      const found = await layer.search({ sessionId: 's', tools: catalogue }, { query: 'forecast', limit: 1 });
      expect('tools' in found && found.tools.map((t) => t.name)).toEqual(['get_forecast']);
      expect((await layer.prepare({ sessionId: 's', tools: catalogue })).discovered).toEqual(['get_forecast']);
      await expect(layer.clear('s')).rejects.toThrow(/failed to clear/);
      await sleep(60);
      expect(unhandled).toEqual([]);
      expect(logger.lines[0]).toMatch(/store "sync" failed \(closed\)/);
    } finally {
      proc?.off('unhandledRejection', onUnhandled);
    }
  });

  it('defect 2: a merge-back racing a new discovery of the same session loses nothing', async () => {
    const { store, inner, failing, hold } = controllable();
    const layer = createToolSearch({ store, logger: recordingLogger(), storeRetryMs: 30 });
    const S = { sessionId: 'S', tools: catalogue };
    const T = { sessionId: 'T', tools: catalogue };
    failing.add('S');
    await layer.search(S, { query: 'forecast', limit: 1 }); // X in memory
    failing.delete('S');
    await sleep(40);
    const release = hold();
    const mergeBack = layer.prepare(S); // the merge-back update is in flight
    await sleep(5);
    failing.add('T');
    await layer.search(T, { query: 'calculator', limit: 1 }); // T fails: the retry time moves
    failing.delete('T');
    await layer.search(S, { query: 'translate', limit: 1 }); // Y
    release();
    await mergeBack;
    await sleep(40);
    const after = await layer.prepare(S);
    expect(after.discovered).toEqual(expect.arrayContaining(['get_forecast', 'translate_text']));
    expect(orderOf(await inner.get('S'))).toEqual(expect.arrayContaining(['get_forecast', 'translate_text']));
  });

  it('defect 3: a second outage is warned about even when a session of the first never came back', async () => {
    const { store, failing } = controllable();
    const logger = recordingLogger();
    const layer = createToolSearch({ store, logger, storeRetryMs: 0 });
    failing.add('*');
    await layer.search({ sessionId: 'A', tools: catalogue }, { query: 'email', limit: 1 });
    await layer.search({ sessionId: 'B', tools: catalogue }, { query: 'email', limit: 1 }); // B never returns
    failing.delete('*');
    await layer.prepare({ sessionId: 'A', tools: catalogue });
    await layer.prepare({ sessionId: 'C', tools: catalogue });
    failing.add('*');
    await layer.prepare({ sessionId: 'C', tools: catalogue });
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[1]).toMatch(/store "controllable" failed/);
  });

  it.each([
    ['a BigInt version', () => ({ v: 2n, order: [], recent: [] })],
    [
      'a throwing getter',
      () => ({
        get v(): number {
          throw new Error('getter');
        },
      }),
    ],
  ])('defect 4: a stored value holding %s is replaced, and the round is no store failure', async (_, value) => {
    const inner = createMemoryStore();
    await inner.update('s', value);
    const logger = recordingLogger();
    const layer = createToolSearch({ store: inner, logger, storeRetryMs: 60_000 });
    const round = await layer.prepare({ sessionId: 's', tools: catalogue, messages: searchTurn('c1', ['calculator']) });
    expect(round.discovered).toEqual(['calculator']);
    expect(round.warnings.join('\n')).not.toMatch(/failed/);
    const stored = (await inner.get('s')) as { v: number; order: string[] };
    expect(stored.v).toBe(RECORD_VERSION);
    expect(stored.order).toEqual(['calculator']);
  });

  it('defect 9: a round reads the store once, and writes once only when something changed', async () => {
    const data = new Map<string, unknown>();
    const counts = { reads: 0, writes: 0 };
    const counting: DiscoveredStore = {
      name: 'counting',
      async get(id) {
        counts.reads++;
        return data.get(id);
      },
      async update(id, apply) {
        counts.reads++;
        const current = data.get(id);
        const next = apply(current);
        if (next === current) return current;
        counts.writes++;
        data.set(id, next);
        return next;
      },
      async delete(id) {
        data.delete(id);
      },
      async clear() {
        data.clear();
      },
    };
    const layer = createToolSearch({ store: counting, logger: recordingLogger() });
    const messages = searchTurn('c1', ['calculator', 'web_search']);
    const round = async (run: () => Promise<unknown>) => {
      counts.reads = 0;
      counts.writes = 0;
      await run();
      return { ...counts };
    };
    expect(await round(() => layer.prepare({ sessionId: 's', tools: catalogue, messages }))).toEqual({
      reads: 1,
      writes: 1,
    });
    expect(await round(() => layer.prepare({ sessionId: 's', tools: catalogue, messages }))).toEqual({
      reads: 1,
      writes: 0,
    });
    expect(
      await round(() => layer.search({ sessionId: 's', tools: catalogue }, { query: 'forecast', limit: 1 })),
    ).toEqual({ reads: 1, writes: 1 });
  });
});
