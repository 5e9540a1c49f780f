// Search with learning against learning off, in one process: the in-process comparison docs/ranking.md quotes. Each
// tree's two layers (learning off; learning on, fed half of seal-tools's requests as sessions: 4,076 tools, 676
// sessions) answer the fed requests (their terms carry credit), the layers taken in rotation, so the machine's other
// work falls on all alike. Given two trees (the old code and the new), it also prints the new against the old and
// how many first rounds' rankings differ. With `--commit`, each round first commits a new session per fresh request
// to the learning layers, as `learnSpeed` does (the memory grows, and the terms the commits touched are read afresh).
// Each round sends its queries with trailing spaces, twice its number of them: the same words, ranked the same, but no
// cache keyed by a query's text answers a later round (a real request seldom comes twice in the same words), so
// every round times what a new request costs. A learning layer's query has one space more: a search remembers the
// last query it tokenized (src/search/rank.ts), and learning off, taking the same words just before or after in the
// same module, would otherwise tokenize for free half the time, which no server's next request does. Spaces only: a
// line break or any character outside printable ASCII sends a query down the tokenizer's slower Unicode path
// (src/search/tokenize.ts), which learning alone would then pay (a line break did, until 2026-12-07: 1.29-1.32x, not
// 1.34).
//
// With `--after-commit`, it times instead what a busy server's search costs after a commit: per tree and per round,
// one new session committed (prepare and flush) to the learning layer, then the first search after it and the next
// (a steady search), 40 rounds per tree (with --rounds N: N), the trees taken in turn; it prints their medians and
// 90th percentiles, and with two trees how many of the searches' answers differ. A search after a load recomputes what is derived from the whole memory (layouts, and the votes'
// reliabilities when the memory changed enough: memory-entries.ts `changedEnough`).
//
//   npx tsx bench/learn-ab.ts [--rounds 7] [--commit | --after-commit] [--dist] [treeA] [treeB]
//
// A tree is a checkout's root (default: this one); `--dist` imports its built `dist/index.js` instead of `src/`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from '../src/base/types.ts';
import type * as Library from '../src/index.ts';
import { loadSet } from './data.ts';
import { history } from './learn.ts';
import { median, quantile } from './stats.ts';

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 7;
const trees = args.filter((a, i) => !a.startsWith('--') && !(roundsAt >= 0 && i === roundsAt + 1));
if (trees.length === 0) trees.push(resolve(import.meta.dirname, '..'));
if (!(rounds >= 1) || trees.length > 2) {
  console.error('usage: npx tsx bench/learn-ab.ts [--rounds N] [--commit | --after-commit] [--dist] [treeA] [treeB]');
  process.exit(2);
}

type Layer = ReturnType<typeof Library.createToolSearch>;
const seal = loadSet('seal-tools');
const tools = seal.tools as unknown as Tool[];
const half = Math.floor(seal.queries.length / 2);
const fed = seal.queries.slice(0, half);
const fresh = seal.queries.slice(half);
const quiet = { warn() {} };

const layers = new Map<string, Layer>();
for (const [t, tree] of trees.entries()) {
  const entry = flag('--dist') ? `${tree}/dist/index.js` : `${tree}/src/index.ts`;
  const lib = (await import(pathToFileURL(resolve(entry)).href)) as typeof Library;
  const name = trees.length === 1 ? '' : 'AB'[t];
  // The same store as the learning layer's (it keeps the fed sessions): the two differ by learning alone.
  layers.set(
    `off${name}`,
    lib.createToolSearch({ logger: quiet, store: lib.createMemoryStore({ maxSessions: 100_000 }) }),
  );
  const on = lib.createToolSearch({
    logger: quiet,
    learn: true,
    store: lib.createMemoryStore({ maxSessions: 100_000 }),
  });
  for (const [i, q] of fed.entries())
    await on.prepare({ sessionId: `feed-${i}`, tools, messages: history(q.query, q.relevant) });
  await on.flush();
  layers.set(`on${name}`, on);
}

if (flag('--after-commit')) {
  const learningLayers = [...layers.keys()].filter((k) => k.startsWith('on'));
  const laps = new Map(
    learningLayers.map((k) => [k, { commit: [] as number[], first: [] as number[], next: [] as number[] }]),
  );
  // Warm: every fed request searched once, as a server that has answered for a while.
  for (const k of learningLayers)
    for (const [i, q] of fed.entries())
      await (layers.get(k) as Layer).search({ sessionId: `warm-${i}`, tools }, { query: q.query });
  const count = roundsAt >= 0 ? rounds : 40;
  // Each tree's answers, to count the searches whose answers differ between the trees.
  const answers = new Map<string, string>();
  for (let r = 0; r < count; r++)
    for (const [j] of learningLayers.entries()) {
      const k = learningLayers[(j + r) % learningLayers.length] as string;
      const layer = layers.get(k) as Layer;
      const lap = laps.get(k) as { commit: number[]; first: number[]; next: number[] };
      const q = fresh[r % fresh.length] as (typeof fresh)[number];
      let t0 = performance.now();
      await layer.prepare({ sessionId: `commit-${r}`, tools, messages: history(q.query, q.relevant) });
      await layer.flush();
      lap.commit.push(performance.now() - t0);
      for (const [which, i] of [
        ['first', r],
        ['next', r + 50],
      ] as const) {
        const asked = fed[i % fed.length] as (typeof fed)[number];
        t0 = performance.now();
        const answer = await layer.search(
          { sessionId: `after-${r}-${which}`, tools },
          { query: `${asked.query}${' '.repeat(r + 1)}` },
        );
        lap[which].push(performance.now() - t0);
        answers.set(`${k} ${r} ${which}`, JSON.stringify(answer));
      }
    }
  const ms = (values: number[]) => `${median(values).toFixed(2)} / ${quantile(values, 0.9).toFixed(2)}`;
  console.table(
    learningLayers.map((k) => {
      const lap = laps.get(k) as { commit: number[]; first: number[]; next: number[] };
      return {
        tree: trees[k === 'onB' ? 1 : 0],
        'commit+flush ms (median / p90)': ms(lap.commit),
        'first search after ms': ms(lap.first),
        'next search ms': ms(lap.next),
      };
    }),
  );
  if (learningLayers.length === 2) {
    let differing = 0;
    for (let r = 0; r < count; r++)
      for (const which of ['first', 'next'])
        if (answers.get(`onA ${r} ${which}`) !== answers.get(`onB ${r} ${which}`)) differing++;
    console.log(`searches whose answers differ between the trees: ${differing} of ${2 * count}`);
  }
  process.exit(0);
}

const kinds = [...layers.keys()];
const learning = kinds.filter((k) => k.startsWith('on'));
const per = new Map(kinds.map((k) => [k, [] as number[]]));
let differing = 0;
for (let r = 0; r < rounds; r++) {
  if (flag('--commit'))
    for (const k of learning) {
      const layer = layers.get(k) as Layer;
      for (const [i, q] of fresh.entries())
        await layer.prepare({ sessionId: `round-${r}-${i}`, tools, messages: history(q.query, q.relevant) });
      await layer.flush();
    }
  const times = new Map(kinds.map((k) => [k, [] as number[]]));
  for (const [i, q] of fed.entries()) {
    const answers = new Map<string, string>();
    for (let j = 0; j < kinds.length; j++) {
      const k = kinds[(i + j + r) % kinds.length] as string;
      const t0 = performance.now();
      const query = q.query + ' '.repeat(2 * r + (k.startsWith('on') ? 1 : 0));
      const answer = await (layers.get(k) as Layer).search({ sessionId: `ask-${r}-${i}`, tools }, { query });
      times.get(k)?.push(performance.now() - t0);
      answers.set(k, JSON.stringify(answer));
    }
    if (r === 0 && learning.length === 2 && answers.get('onA') !== answers.get('onB')) differing++;
  }
  for (const k of kinds) per.get(k)?.push(median(times.get(k) as number[]));
}

const of = (k: string): number[] => per.get(k) as number[];
/** The median over rounds of one kind's round median over another's. */
const ratio = (a: string, b: string): number => median(of(a).map((x, i) => x / (of(b)[i] as number)));
const rows = (trees.length === 1 ? [''] : ['A', 'B']).map((name) => ({
  tree: trees[name === 'B' ? 1 : 0],
  offMs: median(of(`off${name}`)).toFixed(3),
  onMs: median(of(`on${name}`)).toFixed(3),
  onOverOff: ratio(`on${name}`, `off${name}`).toFixed(3),
  rounds: of(`on${name}`)
    .map((x, i) => (x / (of(`off${name}`)[i] as number)).toFixed(2))
    .join(' '),
}));
console.table(rows);
if (trees.length === 2)
  console.log(
    `B's search with learning over A's: ${ratio('onB', 'onA').toFixed(3)}; first round's rankings differing: ${differing} of ${fed.length}`,
  );
