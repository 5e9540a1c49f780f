// The memory index shared by the layers of one isolate, over real workerd bindings: stores built per request over one
// KV binding and prefix (or one Durable Object's storage) give one storage identity, so a request's first search
// reads the pages but does not index them again; another prefix or another object shares nothing.
import { env, runInDurableObject } from 'cloudflare:test';
import { createToolSearch, type DiscoveredStore, type SearchResult, type ToolSearch } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { createDurableObjectStore } from 'tool-search-layer/durable-object';
import { describe, expect, it } from 'vitest';
import { catalogue, names } from '../core/fixtures.ts';
import { asked, swapped, taught, turn, unshared } from '../core/learn-share-fixtures.ts';
import { freshPrefix, realKv, requestContext } from './harness.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
const learn = { weight: 0 };

const layerOn = (store: DiscoveredStore): ToolSearch => createToolSearch({ learn, store, logger: quiet });

async function feed(layer: ToolSearch): Promise<void> {
  for (const [i, [query, called]] of taught.entries())
    await layer.prepare({ sessionId: `feed-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

const rankings = (layer: ToolSearch): Promise<string[][]> =>
  Promise.all(
    asked.map(async (query) =>
      names(((await layer.search({ sessionId: 'ask', tools }, { query })) as SearchResult).tools),
    ),
  );

describe('a memory index shared by the requests of one isolate', () => {
  it('over one KV binding and prefix: a request’s first search indexes nothing again; another prefix shares nothing', async () => {
    const prefix = freshPrefix();
    const request = () => {
      const context = requestContext();
      return { context, store: createKvStore({ namespace: realKv, prefix, waitUntil: context.waitUntil }) };
    };
    const writer = request();
    await feed(layerOn(writer.store));
    await writer.context.settle();
    const first = await rankings(layerOn(request().store));
    expect(first[0]).toEqual(['get_forecast']);
    // Another request's store, its pages served with swapped tool names behind their tags: the index is reused.
    expect(await rankings(layerOn(swapped(request().store, true)))).toEqual(first);
    // Without the identity, the request indexes what it is served.
    expect((await rankings(layerOn(swapped(request().store, false))))[0]).toEqual(['calculator']);
    // The same binding under another prefix is another storage.
    const other = createKvStore({ namespace: realKv, prefix: freshPrefix() });
    const unlearned = await rankings(createToolSearch({ store: other, logger: quiet }));
    expect(await rankings(layerOn(other))).toEqual(unlearned);
  });

  it('over one KV binding and prefix: a request’s first search reads nothing within the window; another prefix does', async () => {
    const prefix = freshPrefix();
    /** A request's store, its shared reads counted (the store's identity kept). */
    const request = (at = prefix) => {
      const context = requestContext();
      const store = createKvStore({ namespace: realKv, prefix: at, waitUntil: context.waitUntil });
      const space = store.shared as NonNullable<DiscoveredStore['shared']>;
      const reads = { n: 0 };
      const counted: DiscoveredStore = {
        ...store,
        shared: {
          ...space,
          get: (key) => {
            reads.n++;
            return space.get(key);
          },
        },
      };
      return { context, store: counted, reads };
    };
    const writer = request();
    const layer = createToolSearch({ learn: true, store: writer.store, logger: quiet });
    await feed(layer);
    await writer.context.settle();
    // A layer alone (its store without identity) reads the store itself: the ranking to match.
    const alone = request();
    const ranked = await rankings(createToolSearch({ learn: true, store: unshared(alone.store), logger: quiet }));
    expect(ranked[0]).toEqual(['get_forecast']);
    expect(alone.reads.n).toBeGreaterThan(0);
    const first = request();
    expect(await rankings(createToolSearch({ learn: true, store: first.store, logger: quiet }))).toEqual(ranked);
    // The next request's store and layer: its first search answers from the values the isolate read lately.
    const next = request();
    expect(await rankings(createToolSearch({ learn: true, store: next.store, logger: quiet }))).toEqual(ranked);
    expect(next.reads.n).toBe(0);
    // Another prefix of the same binding shares none of them.
    const other = request(freshPrefix());
    await rankings(createToolSearch({ learn: true, store: other.store, logger: quiet }));
    expect(other.reads.n).toBeGreaterThan(0);
  });

  it('over one Durable Object’s storage, request after request', async () => {
    const host = (env as unknown as { SQLITE_HOST: DurableObjectNamespace }).SQLITE_HOST;
    const stub = host.get(host.idFromName(`share-${crypto.randomUUID()}`));
    const inObject = <T>(body: (storage: DurableObjectStorage) => Promise<T>) =>
      runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => body(state.storage));
    await inObject((storage) => feed(layerOn(createDurableObjectStore({ storage }))));
    const first = await inObject((storage) => rankings(layerOn(createDurableObjectStore({ storage }))));
    expect(first[0]).toEqual(['get_forecast']);
    const again = await inObject((storage) => rankings(layerOn(swapped(createDurableObjectStore({ storage }), true))));
    expect(again).toEqual(first);
  });
});
