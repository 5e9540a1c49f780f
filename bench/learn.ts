// The learning section of `npm run bench`: recall@5 and C@5 before and after feeding (bench/learn-sim.ts) with the
// leave-one-set-out folds, at a quarter, a half and 80% of the queries fed, the curve on metatool, and what learning
// costs prepare and search at 4,076 tools, learn on and fed against off, interleaved in one run.
import type { Message, Tool } from '../src/base/types.ts';
import { createMemoryStore, createToolSearch, type ToolSearch } from '../src/index.ts';
import { MEMORY_WEIGHT, MODEL_WEIGHT, SET_WEIGHT } from '../src/learn/options.ts';
import { type BenchQuery, labelledSets, loadSet } from './data.ts';
import {
  FRACTIONS,
  leaveOneSetOut,
  MEMORY_WEIGHTS,
  MODEL_WEIGHTS,
  runSet,
  type Scores,
  SET_WEIGHTS,
  type SetRun,
  type Weights,
  weightKey,
} from './learn-sim.ts';
import { median, timeMs } from './stats.ts';
import type { Table } from './table.ts';

const pts = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
const ms = (x: number): string => `${x.toFixed(3)} ms`;

/**
 * A fed session's history: the request, a search with its result, two tools called with results. `round` tells one
 * round's call ids from another's in a long session.
 */
export function history(query: string, found: readonly string[], round = ''): Message[] {
  const [s, c] = [`s${round}`, (i: number) => `c${i}${round}`];
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: s, name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: s, content: JSON.stringify({ tools: found.map((name) => ({ name })) }) },
    { role: 'assistant', toolCalls: found.slice(0, 2).map((name, i) => ({ id: c(i), name, arguments: '{}' })) },
    ...found.slice(0, 2).map((_, i): Message => ({ role: 'tool', toolCallId: c(i), content: 'ok' })),
  ];
}

/** Rounds of the long session the bench times: each a new request, searched and two tools called. */
export const LONG_ROUNDS = 200;

/** A serving round's turns: each commits one session and then searches four times. */
const SERVING_TURNS = 120;

/**
 * Tenants a Worker serves in turn in the bench, a scope each on one store: more than the four scopes whose memory
 * indexes an isolate kept per storage before it kept as many as fit its bound (src/learn/shared-memory.ts).
 */
const TENANTS = 8;

/** Catalogues the bench searches in turn on one scope, as users with other tools enabled. */
const CATALOGUES = 4;

/**
 * The median prepare of a long session's last 20 rounds: LONG_ROUNDS requests of `queries`, one a round, the whole
 * history sent every round as a host's loop sends it (each round's search and calls commit new credit).
 */
async function longSession(layerFor: () => ToolSearch, tools: Tool[], queries: readonly BenchQuery[], id: string) {
  const messages: Message[] = [];
  const last: number[] = [];
  let layer = layerFor();
  for (let r = 0; r < LONG_ROUNDS; r++) {
    const q = queries[r % queries.length] as BenchQuery;
    messages.push(...history(q.query, q.relevant, `-${r}`));
    // A layer for each round when `layerFor` builds one each call (a Worker's request), else the same one.
    const round = layerFor();
    if (round !== layer) await layer.flush();
    layer = round;
    const t = await timeMs(() => layer.prepare({ sessionId: id, tools, messages: [...messages] }));
    if (r >= LONG_ROUNDS - 20) last.push(t);
  }
  await layer.flush();
  return median(last);
}

/** What learning costs a round and a search, learn off against on: medians, and the ratios of the rounds' medians. */
export interface LearnSpeed {
  /** prepare with learning off; with learning on, committing new credit; on, a history it already read. */
  readonly prepare: { off: number; commit: number; replay: number };
  /** Searches on the memory as fed (676 sessions): learning off, on, and the median of the rounds' ratios. */
  readonly search: { off: number; on: number; ratio: number };
  /** The same searches on the layer that committed each round's new sessions first (its memory grows). */
  readonly searchAfterCommits: { on: number; ratio: number };
  /** A prepare of a long session's late rounds (LONG_ROUNDS, the whole history sent each round): off and on. */
  readonly longSession: { off: number; on: number };
  /** Searches as fed, each given a new array of the same tools (as an adapter rebuilds it every step). */
  readonly newArrays: { off: number; on: number; ratio: number };
  /** A request's prepare and search as fed, each by a new layer over the same store (as a Worker builds one per request). */
  readonly perRequest: { off: number; on: number; ratio: number };
  /** The long session's late rounds, each by a new layer over the same store. */
  readonly longPerRequest: { off: number; on: number };
  /** Searches as fed over CATALOGUES catalogues in turn (each the catalogue less a few other tools). */
  readonly catalogues: { off: number; on: number; ratio: number };
  /** As perRequest, for TENANTS tenants in turn, a scope each on one store, each fed as the memory above. */
  readonly tenants: { off: number; on: number; ratio: number };
  /**
   * A server that commits as it serves: one new session's round committed and written, then four searches as fed;
   * the first of them, and the three after it (medians, and the medians of the rounds' ratios).
   */
  readonly serving: {
    readonly first: { off: number; on: number; ratio: number };
    readonly later: { off: number; on: number; ratio: number };
  };
}

/**
 * At 4,076 tools (seal-tools), the layer fed with half of the set's requests as sessions (676): prepare of a new
 * session's history (which commits new credit) against the same with learning off and against a history already
 * read; and searches whose terms carry credit (the fed requests), learning on against off, on a layer fed once (the
 * issue's condition) and on the layer that commits each round's 677 new sessions before its searches.
 */
export async function learnSpeed(rounds: number): Promise<LearnSpeed> {
  const seal = loadSet('seal-tools');
  const tools = seal.tools as unknown as Tool[];
  const queries = seal.queries;
  const half = Math.floor(queries.length / 2);
  const fed = queries.slice(0, half);
  const fresh = queries.slice(half);
  const quiet = { warn() {} };
  // The same store for all (the learning layers' keep the fed sessions): they differ by learning alone.
  const offStore = createMemoryStore({ maxSessions: 100_000 });
  const off = createToolSearch({ logger: quiet, store: offStore });
  const learning = (store = createMemoryStore({ maxSessions: 100_000 })) =>
    createToolSearch({ logger: quiet, learn: true, store });
  const on = learning();
  const fedStore = createMemoryStore({ maxSessions: 100_000 });
  const asFed = learning(fedStore);
  for (const layer of [on, asFed]) {
    for (const [i, q] of fed.entries())
      await layer.prepare({ sessionId: `feed-${i}`, tools, messages: history(q.query, q.relevant) });
    await layer.flush();
  }
  const histories = fresh.map((q) => history(q.query, q.relevant));
  const times = {
    off: [] as number[],
    commit: [] as number[],
    replay: [] as number[],
    sOff: [] as number[],
    sFed: [] as number[],
    sOn: [] as number[],
  };
  // Each prepare timed in a loop of its own kind, so one kind's garbage is not collected during the other's timing;
  // the background writes a committing loop queued are timed with it (flushed inside the loop's last call).
  const timed = async (call: (i: number) => Promise<unknown>, n: number, into: number[]) => {
    const t: number[] = [];
    for (let i = 0; i < n; i++) t.push(await timeMs(() => call(i)));
    into.push(median(t));
  };
  const searchers = [
    { layer: off, into: times.sOff },
    { layer: asFed, into: times.sFed },
    { layer: on, into: times.sOn },
  ];
  for (let r = 0; r < rounds; r++) {
    const id = (i: number) => `round-${r}-${i}`;
    const n = histories.length;
    await timed((i) => off.prepare({ sessionId: id(i), tools, messages: histories[i] as Message[] }), n, times.off);
    await timed((i) => on.prepare({ sessionId: id(i), tools, messages: histories[i] as Message[] }), n, times.commit);
    await on.flush();
    await timed((i) => on.prepare({ sessionId: id(i), tools, messages: histories[i] as Message[] }), n, times.replay);
    // The searches in turn, call by call (as bench/learn-ab.ts takes them), so the machine's other work falls on all
    // alike. New text every round, and other text for each layer: no cache keyed by a query's text answers, as a
    // server's next request seldom comes twice in the same words.
    const laps = searchers.map(() => [] as number[]);
    for (const [i, q] of fed.entries())
      for (let j = 0; j < searchers.length; j++) {
        const k = (i + j + r) % searchers.length;
        const { layer } = searchers[k] as (typeof searchers)[number];
        const query = q.query + ' '.repeat(3 * r + k);
        laps[k]?.push(await timeMs(() => layer.search({ sessionId: `ask-${r}-${i}`, tools }, { query })));
      }
    for (const [k, { into }] of searchers.entries()) into.push(median(laps[k] as number[]));
  }
  const ratio = (of: number[]) => median(of.map((x, i) => x / (times.sOff[i] as number)));
  /**
   * The fed requests again, learning off (k 0) and on (k 1) in turn call by call, each text padded apart from every
   * other timing's (`pad`): the median of each round, and the median of the rounds' ratios.
   */
  const inTurn = async (pad: number, call: (k: number, query: string, id: string) => Promise<unknown>) => {
    const got = { off: [] as number[], on: [] as number[] };
    for (let r = 0; r < Math.max(3, Math.ceil(rounds / 2)); r++) {
      const laps = [[] as number[], [] as number[]];
      for (const [i, q] of fed.entries())
        for (let j = 0; j < 2; j++) {
          const k = (i + j + r) % 2;
          const query = `${q.query}${' '.repeat(3 * (pad + r) + k)}`;
          laps[k]?.push(await timeMs(() => call(k, query, `${r}-${i}`)));
        }
      got.off.push(median(laps[0] as number[]));
      got.on.push(median(laps[1] as number[]));
    }
    const ratios = got.on.map((x, i) => x / (got.off[i] as number));
    return { off: median(got.off), on: median(got.on), ratio: median(ratios) };
  };
  // The searches again, each given a new array of the same tool objects, as an adapter's step does.
  const newArrays = await inTurn(rounds, (k, query, id) =>
    (k === 0 ? off : asFed).search({ sessionId: `step-${id}`, tools: [...tools] }, { query }),
  );
  // A Worker's request each: a layer built for it over the store as fed, its prepare (the request's first message)
  // and a search, timed together.
  const perRequest = await inTurn(2 * rounds, async (k, query, id) => {
    const layer = k === 0 ? createToolSearch({ logger: quiet, store: offStore }) : learning(fedStore);
    const sessionId = `request-${id}`;
    await layer.prepare({ sessionId, tools, messages: [{ role: 'user', content: query }] });
    return layer.search({ sessionId, tools }, { query });
  });
  // Users with other tools enabled on one scope: searches as fed over CATALOGUES catalogues in turn, each the
  // catalogue less every 97th tool from another place (the learned tools are all in each).
  const subsets = Array.from({ length: CATALOGUES }, (_, c) => tools.filter((_, i) => i % 97 !== c));
  const catalogues = await inTurn(4 * rounds, (k, query, id) => {
    const request = Number(id.slice(id.indexOf('-') + 1));
    const layer = k === 0 ? off : asFed;
    return layer.search({ sessionId: `catalogue-${id}`, tools: subsets[request % CATALOGUES] as Tool[] }, { query });
  });
  // A Worker serving TENANTS tenants in turn, a scope each on one store (one per tenant, as docs/ranking.md shows),
  // each fed the same sessions: a request's prepare and search by a new layer of its tenant's scope.
  const tenantStore = createMemoryStore({ maxSessions: 100_000 });
  const tenantLayer = (t: number) =>
    createToolSearch({ logger: quiet, learn: { scope: `tenant-${t}` }, store: tenantStore });
  for (let t = 0; t < TENANTS; t++) {
    const layer = tenantLayer(t);
    // A session is one tenant's: its record says what it gave, whatever the scope.
    for (const [i, q] of fed.entries())
      await layer.prepare({ sessionId: `tenant-${t}-feed-${i}`, tools, messages: history(q.query, q.relevant) });
    await layer.flush();
  }
  const tenants = await inTurn(3 * rounds, async (k, query, id) => {
    const request = Number(id.slice(id.indexOf('-') + 1));
    const layer = k === 0 ? createToolSearch({ logger: quiet, store: offStore }) : tenantLayer(request % TENANTS);
    const sessionId = `tenant-request-${id}`;
    await layer.prepare({ sessionId, tools, messages: [{ role: 'user', content: query }] });
    return layer.search({ sessionId, tools }, { query });
  });
  // Long sessions in turn, learning off and on, each on a layer of its own kind; new sessions each time.
  const long = { off: [] as number[], on: [] as number[] };
  const longEach = { off: [] as number[], on: [] as number[] };
  for (let r = 0; r < Math.max(3, Math.ceil(rounds / 2)); r++) {
    long.off.push(await longSession(() => off, tools, fresh, `long-${r}`));
    long.on.push(await longSession(() => on, tools, fresh, `long-${r}`));
    longEach.off.push(
      await longSession(() => createToolSearch({ logger: quiet, store: offStore }), tools, fresh, `each-${r}`),
    );
    longEach.on.push(await longSession(() => learning(fedStore), tools, fresh, `each-${r}`));
  }
  // A server that commits as it serves, learning off and on in turn: each turn one unfed request's session committed
  // and written (its round's credit flushed, as a quiet server's background write ends before the next request),
  // then four searches as fed. Last: its commits grow the fed store's memory.
  const server = { off: off, on: learning(fedStore) };
  const turns = {
    first: { off: [] as number[], on: [] as number[] },
    later: { off: [] as number[], on: [] as number[] },
  };
  const serveRatios = { first: [] as number[], later: [] as number[] };
  for (let r = 0; r < Math.max(3, Math.ceil(rounds / 2)); r++) {
    const laps = {
      first: { off: [] as number[], on: [] as number[] },
      later: { off: [] as number[], on: [] as number[] },
    };
    for (let t = 0; t < SERVING_TURNS; t++) {
      const q = fresh[(r * SERVING_TURNS + t) % fresh.length] as BenchQuery;
      for (const kind of (r + t) % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const layer = server[kind];
        await layer.prepare({ sessionId: `serve-${r}-${t}`, tools, messages: history(q.query, q.relevant, `-s${r}`) });
        await layer.flush();
        for (let k = 0; k < 4; k++) {
          const asked = fed[(t * 4 + k + r * 7) % fed.length] as BenchQuery;
          const query = `${asked.query}${' '.repeat(3 * (3 * rounds + r) + (kind === 'on' ? 1 : 0))}`;
          const took = await timeMs(() => layer.search({ sessionId: `served-${r}-${t}-${k}`, tools }, { query }));
          (k === 0 ? laps.first : laps.later)[kind].push(took);
        }
      }
    }
    for (const part of ['first', 'later'] as const) {
      const [lapOff, lapOn] = [median(laps[part].off), median(laps[part].on)];
      turns[part].off.push(lapOff);
      turns[part].on.push(lapOn);
      serveRatios[part].push(lapOn / lapOff);
    }
  }
  const served = (part: 'first' | 'later') => ({
    off: median(turns[part].off),
    on: median(turns[part].on),
    ratio: median(serveRatios[part]),
  });
  return {
    serving: { first: served('first'), later: served('later') },
    prepare: { off: median(times.off), commit: median(times.commit), replay: median(times.replay) },
    search: { off: median(times.sOff), on: median(times.sFed), ratio: ratio(times.sFed) },
    searchAfterCommits: { on: median(times.sOn), ratio: ratio(times.sOn) },
    longSession: { off: median(long.off), on: median(long.on) },
    newArrays,
    perRequest,
    longPerRequest: { off: median(longEach.off), on: median(longEach.on) },
    tenants,
    catalogues,
  };
}

/** The learning tables: recall@5 and C@5 per set with the held-out folds at three amounts fed, the curve, the speed. */
export async function learnSection(quick: boolean): Promise<Table[]> {
  const sets = quick ? ['metatool', 'restbench', 'acebench-zh'] : labelledSets;
  // The speed first, on a heap the simulations below have not filled (metatool alone feeds 16,838 sessions).
  const speed = await learnSpeed(quick ? 3 : 7);
  const byFraction: SetRun[][] = FRACTIONS.map(() => []);
  for (const name of sets) for (const [k, run] of (await runSet(name)).entries()) byFraction[k]?.push(run);
  const folds = byFraction.map(leaveOneSetOut);
  const fold = (k: number, i: number) => folds[k]?.[i] as ReturnType<typeof leaveOneSetOut>[number];
  const rows = sets.map((name, i) => {
    const run = byFraction[0]?.[i] as SetRun;
    return [
      name,
      `${run.tested}`,
      (run.off.r5 * 100).toFixed(1),
      ...FRACTIONS.map((_, k) => `${pts(fold(k, i).gain)} (${fold(k, i).weight})`),
      (run.off.c5 * 100).toFixed(1),
      ...FRACTIONS.map((_, k) => pts(fold(k, i).complete)),
    ];
  });
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  rows.push([
    'held-out mean',
    '',
    '',
    ...folds.map((f) => pts(mean(f.map((x) => x.gain)))),
    '',
    ...folds.map((f) => pts(mean(f.map((x) => x.complete)))),
  ]);
  rows.push([
    'held-out worst',
    '',
    '',
    ...folds.map((f) => pts(Math.min(...f.map((x) => x.gain)))),
    '',
    ...folds.map((f) => pts(Math.min(...f.map((x) => x.complete)))),
  ]);
  const points = quick ? [500, 2000] : [500, 2000, 8000];
  const columns: Weights[] = [
    { memoryWeight: 0, setWeight: 0, modelWeight: 0 },
    { memoryWeight: MEMORY_WEIGHT, setWeight: 0, modelWeight: 0 },
    { memoryWeight: MEMORY_WEIGHT, setWeight: SET_WEIGHT, modelWeight: 0 },
    { memoryWeight: MEMORY_WEIGHT, setWeight: SET_WEIGHT, modelWeight: MODEL_WEIGHT },
  ];
  const curve = await runSet('metatool', points, columns);
  const pct = (x: number) => (x * 100).toFixed(1);
  return [
    {
      title: 'Learning from use: recall@5 and C@5 on each set’s last fifth, learn on and fed against off (points)',
      columns: [
        'set',
        'tested',
        'R@5 off',
        ...FRACTIONS.map((f) => `R@5 fed ${f * 100}%`),
        'C@5 off',
        ...FRACTIONS.map((f) => `C@5 fed ${f * 100}%`),
      ],
      rows,
      notes: [
        'Each set’s queries (all of them) shuffled by a fixed seed; the last fifth is the test, searched in fresh sessions; sessions from the rest search and call the needed tools through prepare, fed cumulatively up to a quarter, a half and 80% of the set. C@5: the share of requests with every needed tool in the top 5.',
        `The memory weight (m) of each held-out set is the one that did best on the other sets with the tool sets off (grid ${MEMORY_WEIGHTS.join(', ')}), then the tool sets’ weight (s) the one that did best beside it (grid ${SET_WEIGHTS.join(', ')}), then the trained model’s weight (t) beside those (grid ${MODEL_WEIGHTS.join(', ')}; bench/TUNING.md); the table’s weight stays at its default, 12. Shipped: m ${MEMORY_WEIGHT}, s ${SET_WEIGHT}, t ${MODEL_WEIGHT}.`,
      ],
    },
    {
      title: 'Learning’s curve on metatool: the last fifth after n sessions fed (recall@5 / C@5, %)',
      columns: [
        'sessions fed',
        'learn off',
        'table only (memoryWeight 0, setWeight 0)',
        `table and memory (memoryWeight ${MEMORY_WEIGHT}, setWeight 0)`,
        `table, memory and tool sets (setWeight ${SET_WEIGHT})`,
        `all four: the trained model too (modelWeight ${MODEL_WEIGHT})`,
      ],
      rows: curve.map((run) => [
        `${run.fed}`,
        `${pct(run.off.r5)} / ${pct(run.off.c5)}`,
        ...columns.map((w) => {
          const s = run.on.get(weightKey(w)) as Scores;
          return `${pct(s.r5)} / ${pct(s.c5)}`;
        }),
      ]),
      notes: ['One store fed in order; each point is searched by fresh layers over it.'],
    },
    {
      title: 'Learning’s cost at 4,076 tools (seal-tools), fed with 676 sessions: median per call',
      columns: ['call', 'learn off', 'learn on', 'on − off'],
      rows: [
        [
          'prepare of a new session (commits new credit)',
          ms(speed.prepare.off),
          ms(speed.prepare.commit),
          ms(speed.prepare.commit - speed.prepare.off),
        ],
        [
          'prepare of a history already read (commits nothing)',
          ms(speed.prepare.off),
          ms(speed.prepare.replay),
          ms(speed.prepare.replay - speed.prepare.off),
        ],
        [
          `prepare of a long session's late rounds (rounds ${LONG_ROUNDS - 19}-${LONG_ROUNDS}, each a new search; the whole history sent)`,
          ms(speed.longSession.off),
          ms(speed.longSession.on),
          ms(speed.longSession.on - speed.longSession.off),
        ],
        [
          'search whose terms carry credit, the memory as fed (676 sessions)',
          ms(speed.search.off),
          ms(speed.search.on),
          `${speed.search.ratio.toFixed(2)}×`,
        ],
        [
          'the same, each round after committing 677 new sessions (the memory grows)',
          ms(speed.search.off),
          ms(speed.searchAfterCommits.on),
          `${speed.searchAfterCommits.ratio.toFixed(2)}×`,
        ],
        [
          'a search as fed, each given a new array of the same tools (as an adapter rebuilds it every step)',
          ms(speed.newArrays.off),
          ms(speed.newArrays.on),
          `${speed.newArrays.ratio.toFixed(2)}×`,
        ],
        [
          `a search as fed, over ${CATALOGUES} catalogues in turn (users with other tools enabled: each the catalogue less a few tools)`,
          ms(speed.catalogues.off),
          ms(speed.catalogues.on),
          `${speed.catalogues.ratio.toFixed(2)}×`,
        ],
        [
          'a request’s prepare and search as fed, each by a new layer over the same store (as a Worker builds one per request)',
          ms(speed.perRequest.off),
          ms(speed.perRequest.on),
          `${speed.perRequest.ratio.toFixed(2)}×`,
        ],
        [
          `the same, ${TENANTS} tenants in turn, a scope each on one store (each fed as above)`,
          ms(speed.tenants.off),
          ms(speed.tenants.on),
          `${speed.tenants.ratio.toFixed(2)}×`,
        ],
        [
          `the long session's late rounds, each by a new layer over the same store`,
          ms(speed.longPerRequest.off),
          ms(speed.longPerRequest.on),
          ms(speed.longPerRequest.on - speed.longPerRequest.off),
        ],
        [
          'a server that commits as it serves: the first search after one new session’s round is written',
          ms(speed.serving.first.off),
          ms(speed.serving.first.on),
          `${speed.serving.first.ratio.toFixed(2)}×`,
        ],
        [
          'the three searches after it',
          ms(speed.serving.later.off),
          ms(speed.serving.later.on),
          `${speed.serving.later.ratio.toFixed(2)}×`,
        ],
      ],
      notes: [
        'Rounds of 677 calls each; the prepares of each kind in a loop of their own, the searches of the three layers in turn call by call; medians of the rounds’ medians (a search ratio: the median of the rounds’ ratios to learning off). A committing round only queues its credit: the merged write runs in the background, its time counted in whichever call it overlaps. The last row’s layer is the one that committed: its memory holds 676 sessions more each round (about 5,400 by the seventh).',
        `The server: ${SERVING_TURNS} turns a round, learning off and on in turn, each turn committing one unfed request's session and writing it (flush), then four searches as fed with new text; the first search's median and the next three's, per round, and the medians over rounds.`,
        `The long session: ${LONG_ROUNDS} of the unfed requests in turn, each searched and two of its tools called, the history of every round before it sent whole (about ${LONG_ROUNDS * 5} messages by the last); the median of its last 20 prepares, the median over runs alternating learning off and on.`,
      ],
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { renderText } = await import('./table.ts');
  if (process.argv.includes('--speed-only')) console.log(await learnSpeed(3));
  else for (const table of await learnSection(process.argv.includes('--quick'))) console.log(`${renderText(table)}\n`);
}
