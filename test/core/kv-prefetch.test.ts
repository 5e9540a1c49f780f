// The KV store's read ahead of a session's update, as the layer's search asks for it: a read that fails or hangs
// fails the round's update as the update's own read would (a warning, the session kept in memory), and a read left
// unused past its window is not taken.
import { createToolSearch, type SearchResult, type ToolSearchEvent } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogue, names } from './fixtures.ts';
import { kvOver } from './kv-fixtures.ts';

const tools = [...catalogue];
const deferred = (_: Promise<unknown>) => {};

/** A binding over a map whose reads of session keys answer as `session` says; every read is counted by key. */
function namespaceOver(session: (key: string) => Promise<string | null> | undefined = () => undefined) {
  const texts = new Map<string, string>();
  const { namespace, reads } = kvOver(
    texts,
    (key, text) => (key.startsWith('tsl:0:s:') && session(key)) || Promise.resolve(text()),
  );
  return { namespace, texts, reads };
}

describe('cloudflare-kv store: the read ahead of a search’s update', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const [what, answer, message] of [
    ['fails', () => Promise.reject(new Error('KV GET failed: 503')), /KV GET failed: 503/],
    ['hangs', () => new Promise<null>(() => {}), /took longer than 50 ms/],
  ] as const) {
    it(`warns once and keeps the session in memory when the session's read ${what}, as without the read ahead`, async () => {
      /** A search and a prepare of one session with learning on (the read ahead) or off (the update's own read). */
      const run = async (learn: boolean) => {
        const kv = namespaceOver(answer);
        const warnings: string[] = [];
        const events: ToolSearchEvent[] = [];
        const layer = createToolSearch({
          learn,
          store: createKvStore({ namespace: kv.namespace, waitUntil: deferred }),
          storeTimeoutMs: 50,
          logger: { warn: (m) => void warnings.push(m) },
          onEvent: (event) => void events.push(event),
        });
        const result = await layer.search({ sessionId: 's', tools }, { query: 'weather' });
        expect(names((result as SearchResult).tools)).toContain('get_weather');
        // The tools found stay the session's, in memory, while the store is left alone.
        const { discovered } = await layer.prepare({ sessionId: 's', tools });
        expect(discovered).toContain('get_weather');
        const fallbacks = events.filter((event) => event.type === 'store-fallback').length;
        return { warnings, fallbacks, reads: kv.reads.get('tsl:0:s:s') };
      };
      const ahead = await run(true);
      expect(ahead.warnings).toHaveLength(1);
      expect(ahead.warnings[0]).toMatch(message);
      expect(ahead).toEqual(await run(false));
    });
  }

  it('lets an update take a read begun within 5 s, and reads again after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const kv = namespaceOver();
    const store = createKvStore({ namespace: kv.namespace, waitUntil: deferred });
    store.prefetch?.('a');
    store.prefetch?.('b');
    // A second hint for a session already being read reads nothing more.
    store.prefetch?.('a');
    await store.update('a', () => ['x']);
    expect(kv.reads.get('tsl:0:s:a')).toBe(1);
    vi.setSystemTime(Date.now() + 5_001);
    await store.update('b', () => ['y']);
    expect(kv.reads.get('tsl:0:s:b')).toBe(2);
  });

  it('leaves a search whose ranking waits on nothing to read the session when it records it', async () => {
    const kv = namespaceOver();
    let hinted = 0;
    const store = createKvStore({ namespace: kv.namespace, waitUntil: deferred });
    const prefetch = store.prefetch?.bind(store);
    const layer = createToolSearch({
      store: {
        ...store,
        prefetch(id) {
          hinted++;
          prefetch?.(id);
        },
      },
    });
    await layer.search({ sessionId: 's', tools }, { query: 'weather' });
    expect(hinted).toBe(0);
    expect(kv.reads.get('tsl:0:s:s')).toBe(1);
  });
});
