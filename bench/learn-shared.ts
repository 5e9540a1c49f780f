// A fresh layer's first search with learning over a large memory (metatool's requests fed as sessions), as a Worker
// that builds a store and a layer per request pays it: with a store of a new storage identity each round (the index
// built from every page: what every request paid before layers shared it) against one of the same identity (a warm
// index in the isolate: the pages read, none indexed again), and of the same identity within 5 s of the last request
// (the isolate's values read lately warm too: nothing read). The warm index alone is taken with the clock moved past
// the 5 s window. The layers keep their sessions and shared values in the KV store (writes deferred to a waitUntil)
// over a namespace that serves JSON texts from one map (as KV returns them), and count its reads.
// Each get of the namespace may wait LATENCY_MS (a KV read's round trip; default 0), and the bench counts the
// sequential waves of reads a first search waits for (a read begun after another answered is a wave deeper; shown
// with a latency only, since without one the order reads answer in says nothing of which waited on which).
// Interleaved rounds (learning off in each too), medians. Run: [LATENCY_MS=10] npx tsx bench/learn-shared.ts [rounds]
import type { Message, Tool } from '../src/base/types.ts';
import { createToolSearch } from '../src/index.ts';
import { createKvStore, type KvNamespaceLike } from '../src/stores/cloudflare-kv.ts';
import { sharedKey } from '../src/stores/keys.ts';
import type { DiscoveredStore, SharedSpace } from '../src/stores/store.ts';
import { loadSet } from './data.ts';
import { median, timeMs } from './stats.ts';

function history(query: string, used: readonly string[]): Message[] {
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: 's', content: '{"found":0,"tools":[]}' },
    { role: 'assistant', toolCalls: used.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })) },
    ...used.map((_, i): Message => ({ role: 'tool', toolCallId: `c${i}`, content: 'ok' })),
  ];
}

// The clock the layers read, moved past the window of the values read lately to time the warm index alone.
const realNow = Date.now;
let skew = 0;
Date.now = () => realNow() + skew;
const passWindow = () => {
  skew += 5_001;
};

// Reads of the shared space by the last request's layer.
let reads = 0;
// How long each get of the namespace waits, as a round trip to KV would.
const latency = Number(process.env.LATENCY_MS ?? 0);
// The waves of gets of the last request: a get takes the wave after the deepest one answered before it began. Each
// request searches a session of its own, so the gets of an earlier request's deferred session write (its waitUntil)
// are told apart and count for none.
let answered = 0;
let waves = 0;
let request = 0;
const ofEarlier = (key: string) => key.includes(':s:r') && !key.endsWith(`:s:r${request}`) && !key.includes(':x:');

/** A KV namespace binding over one map of JSON texts (the storage): one binding object per isolate. */
function namespaceOver(texts: Map<string, string>): KvNamespaceLike {
  return {
    async get(key) {
      const current = !ofEarlier(key);
      if (key.includes(':x:') && current) reads++;
      const wave = answered + 1;
      if (current) waves = Math.max(waves, wave);
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      if (current) answered = Math.max(answered, wave);
      return texts.get(key) ?? null;
    },
    async put(key, value) {
      texts.set(key, value);
    },
    async delete(key) {
      texts.delete(key);
    },
    async list() {
      return { keys: [] };
    },
  };
}

/** The feeder's store over one map of JSON texts, giving `identity` as its storage identity. */
function storeOver(data: Map<string, string>, identity: object): DiscoveredStore {
  const space = (prefix: string): SharedSpace & { identity: object } => ({
    async get(key) {
      const text = data.get(prefix + key);
      return text === undefined ? undefined : JSON.parse(text);
    },
    async update(key, apply) {
      const text = data.get(prefix + key);
      const current = text === undefined ? undefined : JSON.parse(text);
      const next = apply(current);
      if (next === current) return current;
      if (next === undefined) data.delete(prefix + key);
      else data.set(prefix + key, JSON.stringify(next));
      return next;
    },
    async delete(key) {
      data.delete(prefix + key);
    },
    identity,
  });
  const sessions = space('s:');
  return {
    name: 'bench',
    get: sessions.get,
    update: sessions.update,
    delete: sessions.delete,
    async clear() {
      data.clear();
    },
    shared: space('x:'),
  };
}

const rounds = Number(process.argv[2] ?? 15);
const set = loadSet('metatool');
const tools = set.tools as unknown as Tool[];
const quiet = { warn() {} };
const data = new Map<string, string>();
const feeder = createToolSearch({ learn: true, store: storeOver(data, {}), logger: quiet });
for (const [i, q] of set.queries.entries())
  await feeder.prepare({ sessionId: `feed-${i}`, tools, messages: history(q.query, q.relevant) });
await feeder.flush();
const asked = set.queries.map((q) => q.query);
// What the feeder wrote, as the KV store keeps shared values (under its prefix and epoch, with the marks of writes).
const texts = new Map<string, string>();
for (const [key, text] of data)
  if (key.startsWith('x:')) texts.set(await sharedKey('tsl:0:', key.slice(2), 512), `{"w":[],"v":${text}}`);
const warm = namespaceOver(texts);

const deferred = (_: Promise<unknown>) => {};

/** One request: a new store instance and layer, and its first search (learning off when `sets` is undefined). */
const firstSearch = (namespace: KvNamespaceLike, sets: boolean | undefined, k: number) => {
  reads = 0;
  answered = 0;
  waves = 0;
  request++;
  const learn = sets === undefined ? undefined : sets ? true : { setWeight: 0 };
  // A request's store over the isolate's binding (the storage identity), its writes deferred as a Worker's would be.
  const store = createKvStore({ namespace, waitUntil: deferred });
  const layer = createToolSearch({ ...(learn ? { learn } : {}), store, logger: quiet });
  return timeMs(() => layer.search({ sessionId: `r${request}`, tools }, { query: asked[k % asked.length] as string }));
};

// Learning off (the catalogue's own index, built by every fresh layer's first search) is taken in the same rounds as
// the layers with learning, so the machine's other work falls on all alike.
await firstSearch(warm, undefined, 0);
const results: string[] = [];
for (const sets of [true, false]) {
  // The warm index built once; a second warm-up round for the JIT.
  await firstSearch(warm, sets, 0);
  const cold: number[] = [];
  const shared: number[] = [];
  const cached: number[] = [];
  const offTimes: number[] = [];
  const readCounts = { index: 0, cached: 0 };
  const waveCounts = { cold: 0, index: 0 };
  for (let r = 0; r < rounds; r++) {
    cold.push(await firstSearch(namespaceOver(texts), sets, r));
    waveCounts.cold = Math.max(waveCounts.cold, waves);
    passWindow();
    shared.push(await firstSearch(warm, sets, r));
    readCounts.index = Math.max(readCounts.index, reads);
    waveCounts.index = Math.max(waveCounts.index, waves);
    cached.push(await firstSearch(warm, sets, r));
    readCounts.cached = Math.max(readCounts.cached, reads);
    offTimes.push(await firstSearch(namespaceOver(texts), undefined, r));
  }
  const c = median(cold);
  const s = median(shared);
  const w = median(cached);
  const off = median(offTimes);
  results.push(
    `tool sets ${sets ? 'on ' : 'off'}: first search ${c.toFixed(1)} ms cold, ${s.toFixed(2)} ms with a warm shared index (${(c / s).toFixed(1)}x faster; ${(s / off).toFixed(2)}x learning off; up to ${readCounts.index} reads${latency > 0 ? ` in ${waveCounts.index} waves; cold ${waveCounts.cold} waves` : ''}), ${w.toFixed(2)} ms with the values read lately warm too (${(w / off).toFixed(2)}x learning off; up to ${readCounts.cached} reads); learning off ${off.toFixed(2)} ms`,
  );
}
console.log(`metatool, ${set.queries.length} requests fed, ${rounds} rounds, ${latency} ms a get, medians`);
for (const line of results) console.log(line);
