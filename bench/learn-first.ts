// A fresh layer's first search over a large memory, as a host that makes a layer per request (Workers) pays it: the
// whole memory read and indexed, the tool sets built and checked. ToolLens's training split is fed once (as
// bench/toollens.ts feeds it) and the shared space it leaves kept; then each round, for each tree and each variant
// (the sets on, `setWeight: 0`), a new store holding that space and a new layer answer one test request, timed, the
// trees and variants taken in rotation so the machine's other work falls on all alike. Prints medians per tree and
// variant, and, with two trees, whether their answers differ.
//
//   TOOLLENS_DIR=/path/to/ToolLens [SPACE_CACHE=/tmp/space.json] npx tsx bench/learn-first.ts [--rounds 15] [treeA] [treeB]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from '../src/base/types.ts';
import type * as Library from '../src/index.ts';
import type { BenchQuery } from './data.ts';
import { feedSession, shuffled } from './learn-sim.ts';
import { median } from './stats.ts';
import { loadToolLens } from './toollens.ts';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 15;
const trees = args.filter((a, i) => !a.startsWith('--') && !(roundsAt >= 0 && i === roundsAt + 1));
if (trees.length === 0) trees.push(resolve(import.meta.dirname, '..'));
const dir = process.env.TOOLLENS_DIR;
if (!dir) throw new Error('bench/learn-first.ts: set TOOLLENS_DIR to a copy of COLT’s datasets/ToolLens');

const { tools, train, test } = loadToolLens(dir);
const libs = await Promise.all(
  trees.map(async (tree) => (await import(pathToFileURL(resolve(`${tree}/src/index.ts`)).href)) as typeof Library),
);
const [first] = libs as [typeof Library];
const options = { maxSearchResults: 5, logger: { warn() {} } };

/** The shared space a store holds after the whole training split was fed, key by key (kept in SPACE_CACHE when set). */
const space = new Map<string, unknown>();
const cache = process.env.SPACE_CACHE;
if (cache && existsSync(cache))
  for (const [key, value] of JSON.parse(readFileSync(cache, 'utf8')) as [string, unknown][]) space.set(key, value);
else {
  const store = first.createMemoryStore({ maxSessions: 200_000, maxShared: 100_000 });
  const shared = store.shared as NonNullable<typeof store.shared>;
  const update: typeof shared.update = async (key, apply) => {
    const value = await shared.update(key, apply);
    if (value === undefined) space.delete(key);
    else space.set(key, value);
    return value;
  };
  const del: typeof shared.delete = async (key) => {
    space.delete(key);
    return shared.delete(key);
  };
  const feeder = first.createToolSearch({
    ...options,
    store: { ...store, shared: { ...shared, update, delete: del } },
    learn: { scope: 'toollens' },
  });
  for (const [i, q] of shuffled(train, 0x5eed).entries())
    await feedSession(feeder, tools as Tool[], `feed-${i}`, q as BenchQuery);
  await feeder.flush();
  if (cache) writeFileSync(cache, JSON.stringify([...space]));
}

const variants: Record<string, object> = { sets: {}, 'setWeight 0': { setWeight: 0 } };
const kinds = libs.flatMap((_, t) => Object.keys(variants).map((v) => ({ t, v })));
const times = new Map(kinds.map(({ t, v }) => [`${t} ${v}`, [] as number[]]));
let differing = 0;
for (let r = 0; r < rounds; r++) {
  const q = test[r % test.length] as BenchQuery;
  const answers = new Map<string, string>();
  for (let j = 0; j < kinds.length; j++) {
    const { t, v } = kinds[(j + r) % kinds.length] as { t: number; v: string };
    const lib = libs[t] as typeof Library;
    const store = lib.createMemoryStore({ maxShared: 100_000 });
    const shared = store.shared as NonNullable<typeof store.shared>;
    for (const [key, value] of space) await shared.update(key, () => value);
    const t0 = performance.now();
    const layer = lib.createToolSearch({ ...options, store, learn: { scope: 'toollens', ...variants[v] } });
    const answer = await layer.search({ sessionId: `first-${r}`, tools: tools as Tool[] }, { query: q.query });
    times.get(`${t} ${v}`)?.push(performance.now() - t0);
    answers.set(`${t} ${v}`, JSON.stringify(answer));
  }
  if (libs.length === 2 && Object.keys(variants).some((v) => answers.get(`0 ${v}`) !== answers.get(`1 ${v}`)))
    differing++;
}
console.table(
  kinds.map(({ t, v }) => {
    const ms = times.get(`${t} ${v}`) as number[];
    return { tree: trees[t], variant: v, medianMs: median(ms).toFixed(1), min: Math.min(...ms).toFixed(1) };
  }),
);
if (libs.length === 2) console.log(`rounds whose answers differ between the trees: ${differing} of ${rounds}`);
