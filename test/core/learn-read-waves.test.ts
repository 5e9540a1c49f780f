// The reads a fresh layer's first search with learning makes of a KV store, counted in waves (reads begun only after
// others answered): on KV each wave is a round trip. With the isolate's memory index warm and its values read lately
// past their window (a Worker's request after a quiet spell), the epoch, clock, shards, heads and pages being filled
// are read in one wave; and a page another isolate appended to since is still seen.
import { createToolSearch, type DiscoveredStore, type SharedSpace } from 'tool-search-layer';
import { createKvStore, type KvNamespaceLike } from 'tool-search-layer/cloudflare-kv';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogue, names, ok } from './fixtures.ts';
import { kvOver } from './kv-fixtures.ts';
import { asked, taught, turn } from './learn-share-fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
// Pages of 4,000 bytes in two lanes of two pages: a few hundred requests close pages and move the heads.
const learn = { memoryBytes: 16_000 };

/**
 * A store writing its shared values straight into KV's texts (as the KV store keeps them, in epoch 0): another
 * isolate's writes, landed at once.
 */
function writerOver(texts: Map<string, string>): DiscoveredStore {
  const sessions = new Map<string, unknown>();
  const at = (key: string) => `tsl:0:x:s:${key}`;
  const read = (key: string) => {
    const text = texts.get(at(key));
    return text === undefined ? undefined : (JSON.parse(text) as { v: unknown }).v;
  };
  const shared: SharedSpace = {
    async get(key) {
      return read(key);
    },
    async update(key, apply) {
      const current = read(key);
      const next = apply(current);
      if (next === current) return current;
      if (next === undefined) texts.delete(at(key));
      else texts.set(at(key), JSON.stringify({ w: [], v: next }));
      return next;
    },
    async delete(key) {
      texts.delete(at(key));
    },
  };
  return {
    name: 'writer',
    async get(id) {
      return sessions.get(id) as never;
    },
    async update(id, apply) {
      const next = apply(sessions.get(id) as never);
      sessions.set(id, next);
      return next;
    },
    async delete(id) {
      sessions.delete(id);
    },
    async clear() {
      sessions.clear();
      texts.clear();
    },
    shared,
  };
}

/**
 * A KV binding over the texts (one per isolate) whose reads of the epoch and of shared values answer only when the
 * test lets the waiting ones go, all at once; a session's read answers at once, unless `sessions` gates it too.
 */
function gatedOver(texts: Map<string, string>, sessions = false) {
  const waiting: { key: string; release: () => void }[] = [];
  const { namespace, reads } = kvOver(texts, (key, text) => {
    if (!sessions && !key.endsWith('epoch') && !key.includes(':x:')) return Promise.resolve(text());
    return new Promise((resolve) => waiting.push({ key, release: () => resolve(text()) }));
  });
  /** Runs `work`, letting the reads go wave by wave: its result, the waves it waited for and its reads in them. */
  async function inWaves<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; waves: number; waited: Map<string, number> }> {
    const waited = new Map<string, number>();
    let done = false;
    const running = work().finally(() => {
      done = true;
    });
    let waves = 0;
    for (;;) {
      // Until the work asks for reads or ends (it may await module loads and hashing between its reads).
      for (let idle = 0; idle < 400 && !done && waiting.length === 0; idle++)
        await new Promise((resolve) => setTimeout(resolve, 1));
      if (done || waiting.length === 0) break;
      // And until it has asked for every read it will before one answers: a read begun a moment after another, while
      // none has answered, waits for the same round trip (in workerd the learner's reads come a few ticks after the
      // session's read ahead).
      for (let still = 0, asked = waiting.length; still < 10; still++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (waiting.length !== asked) [still, asked] = [0, waiting.length];
      }
      // Reads still waiting once the work has ended were not waited for (a deferred write's read, its waitUntil's).
      if (done) break;
      waves++;
      for (const { key, release } of waiting.splice(0)) {
        waited.set(key, (waited.get(key) ?? 0) + 1);
        release();
      }
    }
    for (const { release } of waiting.splice(0)) release();
    return { result: await running, waves, waited };
  }
  return { namespace, inWaves, reads };
}

// A Worker's waitUntil: the deferred writes run on, unwaited.
const deferred = (_: Promise<unknown>) => {};

/** A request: a new KV store over the isolate's binding (writes deferred), a new layer, its first search of `query`. */
const firstSearch = (namespace: KvNamespaceLike, query: string, sessionId = 'ask') => {
  const store = createKvStore({ namespace, waitUntil: deferred });
  const layer = createToolSearch({ learn, store, logger: quiet });
  return layer.search({ sessionId, tools }, { query });
};

async function fed(texts: Map<string, string>, more: [string, string[]][] = []): Promise<void> {
  const layer = createToolSearch({ learn, store: writerOver(texts), logger: quiet });
  for (const [i, [query, called]] of [...taught, ...more].entries())
    await layer.prepare({ sessionId: `feed-${texts.size}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

/** Moves the clock past the window in which layers of one storage answer from the values read lately. */
const afterWindow = () => vi.setSystemTime(Date.now() + 5_001);

describe('the read waves of a first search with learning on KV', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads everything in one wave when the isolate holds the index, and ranks as a cold layer does', async () => {
    const texts = new Map<string, string>();
    await fed(texts);
    const isolate = gatedOver(texts);
    const query = asked[0] as string;
    const cold = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(names(ok(cold.result).tools)[0]).toBe('get_forecast');
    // Cold, the epoch with the heads, clock and shards under the first epoch, then the pages the heads name.
    expect(cold.waves).toBe(2);
    afterWindow();
    const warm = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(warm.waves).toBe(1);
    expect(names(ok(warm.result).tools)).toEqual(names(ok(cold.result).tools));
  });

  it("reads the session's record in the same wave as the ranking's values, and a prepare in one wave", async () => {
    const texts = new Map<string, string>();
    await fed(texts);
    const isolate = gatedOver(texts, true);
    const query = asked[0] as string;
    // Cold, the record is read with the epoch and the heads (under the first epoch), then come the pages they name.
    const cold = await isolate.inWaves(() => firstSearch(isolate.namespace, query, 'cold'));
    expect(names(ok(cold.result).tools)[0]).toBe('get_forecast');
    expect(cold.waves).toBe(2);
    afterWindow();
    const warm = await isolate.inWaves(() => firstSearch(isolate.namespace, query, 'warm'));
    expect(warm.waves).toBe(1);
    expect(names(ok(warm.result).tools)).toEqual(names(ok(cold.result).tools));
    // One read of the record: the update took the read begun alongside the ranking's.
    expect(warm.waited.get('tsl:0:s:warm')).toBe(1);
    // Within the window of values read lately, the record is the only read: one wave, as with learning off.
    const lately = await isolate.inWaves(() => firstSearch(isolate.namespace, query, 'lately'));
    expect(lately.waves).toBe(1);
    const off = createToolSearch({ store: createKvStore({ namespace: isolate.namespace, waitUntil: deferred }) });
    const plain = await isolate.inWaves(() => off.search({ sessionId: 'off', tools }, { query: 'weather' }));
    expect(ok(plain.result).found).toBeGreaterThan(0);
    expect(plain.waves).toBe(1);
    // A prepare with learning reads the record and nothing else before it answers (its credit is written later).
    afterWindow();
    const prepare = createToolSearch({
      learn,
      store: createKvStore({ namespace: isolate.namespace, waitUntil: deferred }),
      logger: quiet,
    });
    const messages = turn(query, ['get_forecast']);
    const prepared = await isolate.inWaves(() =>
      prepare.prepare({ sessionId: 'warm', tools, messages, waitUntil: deferred }),
    );
    expect(prepared.waves).toBe(1);
    expect(prepared.result.discovered).toContain('get_forecast');
  });

  it('reads under the epoch a clear moved to, in a new isolate and in one that read the old epoch', async () => {
    const texts = new Map<string, string>();
    await fed(texts);
    const query = asked[0] as string;
    const isolate = gatedOver(texts);
    const learned = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(names(ok(learned.result).tools)[0]).toBe('get_forecast');
    // Another isolate clears: a new epoch, nothing under it.
    texts.set('tsl:epoch', 'z1');
    const unlearned = names(
      ok(await createToolSearch({ logger: quiet }).search({ sessionId: 'ask', tools }, { query })).tools,
    );
    expect(unlearned[0]).not.toBe('get_forecast');
    afterWindow();
    const after = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(names(ok(after.result).tools)).toEqual(unlearned);
    // Read under the old epoch alongside the epoch, then again under the new one.
    expect(after.waves).toBe(2);
    const fresh = gatedOver(texts);
    const first = await fresh.inWaves(() => firstSearch(fresh.namespace, query));
    expect(names(ok(first.result).tools)).toEqual(unlearned);
  });

  it("sees another isolate's append to a page being filled, and to pages closed since", async () => {
    const texts = new Map<string, string>();
    await fed(texts);
    const isolate = gatedOver(texts);
    const query = 'zebra stripes ledger';
    const before = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(names(ok(before.result).tools)[0]).not.toBe('calculator');
    // Another isolate teaches the query: its requests land on the pages being filled.
    await fed(texts, [
      [query, ['calculator']],
      [`${query} again`, ['calculator']],
    ]);
    afterWindow();
    const after = await isolate.inWaves(() => firstSearch(isolate.namespace, query));
    expect(names(ok(after.result).tools)[0]).toBe('calculator');
    // Enough requests to close the pages this isolate read as being filled (and fill the next). Read alongside the
    // heads, they may lack their last requests (a writer appends, then moves the head): used as pages being filled,
    // they are read again, closed, by the isolate's next reading; both rank as an isolate that never read them.
    const lasts = () =>
      [0, 1].map((lane) => JSON.parse(texts.get(`tsl:0:x:s:learn:default:m${lane}`) ?? '{"v":{"last":0}}').v.last);
    const many = Array.from({ length: 250 }, (_, i): [string, string[]] => [`zebra ledger ${i}`, ['read_inbox']]);
    await fed(texts, many);
    expect(lasts()).toEqual([1, 1]);
    const fresh = gatedOver(texts);
    const unread = names(ok((await fresh.inWaves(() => firstSearch(fresh.namespace, 'zebra ledger'))).result).tools);
    expect(unread[0]).toBe('read_inbox');
    const closed = [0, 1].map((lane) => `tsl:0:x:s:learn:default:m${lane}:0`);
    // Each reading: the waves it waited for, and its reads of each closed page. The first reads the pages being filled
    // after the heads (they moved), and the closed ones early; the second the closed ones again after the heads; the
    // third nothing after the heads, the isolate's index holding them closed.
    for (const [waves, reads] of [
      [2, 1],
      [2, 1],
      [1, 0],
    ]) {
      afterWindow();
      isolate.reads.clear();
      const moved = await isolate.inWaves(() => firstSearch(isolate.namespace, 'zebra ledger'));
      expect(names(ok(moved.result).tools)).toEqual(unread);
      expect(closed.map((key) => isolate.reads.get(key) ?? 0)).toEqual([reads, reads]);
      expect(moved.waves).toBe(waves);
    }
  });
});
