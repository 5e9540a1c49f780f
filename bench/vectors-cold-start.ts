// The first search of a cold isolate with the semantic hook, at 4,076 seal-tools tools and an embedding model that
// takes 50 ms a call: before (tool vectors cached in the isolate only: 64 batches of 64 before the first search) and
// after (the vectors an earlier isolate wrote to the store's shared space are read back; the model embeds the query).
// A cold isolate is a fresh catalogue copy and a model name never used in this process (so no cache of the layer
// holds anything) over a store whose shared space answers for the writer's name; the store answers at once, or after
// 10 ms a call (a KV or Durable Object round trip). `npx tsx bench/vectors-cold-start.ts [runs]` prints it alone.

import { createMemoryStore, createToolSearch, type DiscoveredStore, type Tool } from '../src/index.ts';
import { loadSet } from './data.ts';
import { embed as dense } from './embedders/hashed-dense.ts';
import { freshCopy } from './speed.ts';
import { median, timeMs } from './stats.ts';
import type { Table } from './table.ts';

const BATCH_MS = 50;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One cold start: its first search, in ms, and the model's calls. */
interface Cold {
  ms: number;
  calls: number;
}

/** A store over `base` whose shared space answers for `writer`'s vectors under `reader`'s name, `delayMs` a call. */
function renamed(base: DiscoveredStore, writer: string, reader: string, delayMs: number): DiscoveredStore {
  const shared = base.shared;
  if (!shared) throw new Error('the memory store has a shared space');
  const key = (k: string) => k.replace(`vectors:${reader}`, `vectors:${writer}`);
  const wait = () => (delayMs > 0 ? sleep(delayMs) : Promise.resolve());
  return {
    ...base,
    shared: {
      get: (k) => wait().then(() => shared.get(key(k))),
      update: (k, apply) => wait().then(() => shared.update(key(k), apply)),
      delete: (k) => wait().then(() => shared.delete(key(k))),
    },
  };
}

async function firstSearch(tools: readonly Tool[], model: string | undefined, store?: DiscoveredStore): Promise<Cold> {
  let calls = 0;
  const embed = async (texts: string[]) => {
    calls++;
    await sleep(BATCH_MS);
    return dense(texts);
  };
  const layer = createToolSearch({
    ...(store && { store }),
    ...(model && { semantic: { embed, model, timeoutMs: 60_000 } }),
  });
  const ms = await timeMs(() =>
    layer.search({ sessionId: 'cold', tools: [...tools] }, { query: 'weather forecast for a city', limit: 5 }),
  );
  return { ms, calls };
}

/** Before and after, `runs` cold starts each (medians). */
export async function measureVectorsColdStart(runs = 5): Promise<Table> {
  const seal = loadSet('seal-tools').tools;
  const rows: { label: string; cold: Cold[] }[] = [
    { label: 'before: the model embeds the catalogue', cold: [] },
    { label: 'after: vectors read from the store (answers at once)', cold: [] },
    { label: 'after: vectors read from the store (10 ms a call)', cold: [] },
    { label: 'the first isolate with a store: embeds, then writes', cold: [] },
    { label: 'for reference: no hook (keywords alone)', cold: [] },
  ];
  for (let run = 0; run < runs; run++) {
    const tag = `${Date.now().toString(36)}-${run}`;
    rows[4]?.cold.push(await firstSearch(freshCopy(seal, 1e6 + run), undefined));
    rows[0]?.cold.push(await firstSearch(freshCopy(seal, 2e6 + run), `before-${tag}`));
    const store = createMemoryStore();
    const writer = `writer-${tag}`;
    rows[3]?.cold.push(await firstSearch(freshCopy(seal, 3e6 + run), writer, store));
    for (const [i, delay] of [
      [1, 0],
      [2, 10],
    ] as const) {
      const reader = `reader-${delay}-${tag}`;
      rows[i]?.cold.push(await firstSearch(freshCopy(seal, 3e6 + run), reader, renamed(store, writer, reader, delay)));
    }
  }
  return {
    title: `First search of a cold isolate, semantic hook at ${seal.length.toLocaleString('en-US')} tools (seal-tools), 50 ms a model call`,
    columns: ['cold start', 'first search p50', 'model calls'],
    rows: rows.map(({ label, cold }) => [
      label,
      `${median(cold.map((c) => c.ms)).toFixed(0)} ms`,
      String(median(cold.map((c) => c.calls))),
    ]),
    notes: [
      `${runs} runs each; the hashed dense stand-in model (256 dimensions) behind a 50 ms wait a call, 64 texts a call, 4 calls at a time; the first search includes the keyword index's cold build.`,
      'Vectors are kept per named model (`semantic.model`) in the store the layer was given, as int8 in base64, in buckets of at most 90,000 characters.',
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { renderText } = await import('./table.ts');
  console.log(renderText(await measureVectorsColdStart(Number(process.argv[2] ?? 5))));
}
