// The benchmark's results as tables: what `npm run bench` prints and writes to bench/results/latest.md.
import type { BridgeRow } from './bridge.ts';
import type { QualityRow } from './quality.ts';
import type { SizeRow } from './size.ts';
import { CORE_SIZE_LIMIT } from './size.ts';
import type { SpeedRow } from './speed.ts';
import type { PrepareRow, ReuseRow } from './speed-layer.ts';
import type { Table } from './table.ts';
import { SEARCH_TOOL_TOKEN_LIMIT, type SearchToolRow, type TokenRow } from './tokens.ts';
import { type TuneResult, tuningTable } from './tune-report.ts';

export interface BenchResults {
  date: string;
  node: string;
  cpu: string;
  quick: boolean;
  seconds: number;
  peers: { name: string; settings: string }[];
  settings: Record<string, unknown>;
  quality?: QualityRow[];
  /** The last `npm run bench:tune`, shown beside the quality figures. */
  tuning?: TuneResult;
  speed?: { peers: SpeedRow[]; reuse: ReuseRow[]; prepare: PrepareRow[] };
  tokens?: { blocks: TokenRow[]; searchTool: SearchToolRow[] };
  size?: SizeRow[];
  bridge?: BridgeRow;
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
/** Milliseconds with three significant digits, whatever the scale. */
const ms = (x: number): string => (!Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x.toPrecision(3));
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
/** How ours compares: "4.0× faster" when ours takes a quarter of the peer's time. */
const versus = (ours: number, peer: number): string => {
  if (!(ours > 0 && peer > 0)) return 'n/a';
  return ours <= peer ? `${(peer / ours).toFixed(1)}× faster` : `${(ours / peer).toFixed(1)}× slower`;
};

/** "bfcl: 30 of 2,351 (every library)" or per library when only some were sampled. */
function describeSamples(sampled: QualityRow[], peerCount: number): string {
  const sets = [...new Set(sampled.map((r) => r.set))];
  return sets
    .map((set) => {
      const rows = sampled.filter((r) => r.set === set);
      const counts = new Set(rows.map((r) => r.queries));
      const first = rows[0] as QualityRow;
      if (rows.length === peerCount && counts.size === 1)
        return `${set}: ${int(first.queries)} of ${int(first.ofQueries)} (every library)`;
      return rows.map((r) => `${r.peer} on ${set}: ${int(r.queries)} of ${int(r.ofQueries)}`).join('; ');
    })
    .join('; ');
}

function qualityTable(rows: QualityRow[], limit: unknown): Table {
  const sets = [...new Set(rows.map((r) => r.set))];
  const peers = [...new Set(rows.map((r) => r.peer))];
  const find = (set: string, peer: string) => rows.find((r) => r.set === set && r.peer === peer);
  const sampled = rows.filter((r) => r.queries < r.ofQueries);
  return {
    title: 'Retrieval quality (users\u2019 raw requests as queries)',
    columns: ['library', ...sets],
    rows: peers.map((p) => [
      p,
      ...sets.map((s) => {
        const r = find(s, p);
        return r ? `${f3(r.recall5)} / ${f3(r.ndcg5)} / ${f3(r.mrr)}` : '';
      }),
    ]),
    notes: [
      'Each cell: recall@5 / nDCG@5 / MRR.',
      `MRR is MRR@${String(limit)}: every library returns at most ${String(limit)} names per query.`,
      `Queries per set: ${sets.map((s) => `${s} ${int(find(s, peers[0] as string)?.ofQueries ?? 0)}`).join(', ')}.`,
      ...(sampled.length
        ? [
            `Sampled (evenly spread, the same queries for every library sampled): ${describeSamples(sampled, peers.length)}.`,
          ]
        : ['Every query of every set was run for every library.']),
    ],
  };
}

/** The name of the tuned BM25 baseline's row: the margin over it is the figure that matters (issue 8). */
export const BASELINE = 'wink-bm25 tuned';

function marginTable(rows: QualityRow[]): Table | undefined {
  const ours = rows.filter((r) => r.peer === rows[0]?.peer);
  const pairs = ours.flatMap((o) => {
    const b = rows.find((r) => r.set === o.set && r.peer === BASELINE);
    return b ? [[o, b] as const] : [];
  });
  if (pairs.length === 0) return undefined;
  const points = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
  const mean = (f: (o: QualityRow, b: QualityRow) => number): number =>
    pairs.reduce((sum, [o, b]) => sum + f(o, b), 0) / pairs.length;
  return {
    title: `Margin over tuned BM25 (${BASELINE}), same run`,
    columns: ['set', 'ours R@5', 'tuned R@5', 'R@5 margin (points)', 'ours MRR', 'tuned MRR', 'MRR margin (points)'],
    rows: [
      ...pairs.map(([o, b]) => [
        o.set,
        f3(o.recall5),
        f3(b.recall5),
        points(o.recall5 - b.recall5),
        f3(o.mrr),
        f3(b.mrr),
        points(o.mrr - b.mrr),
      ]),
      [
        'mean of the sets',
        f3(mean((o) => o.recall5)),
        f3(mean((_, b) => b.recall5)),
        points(mean((o, b) => o.recall5 - b.recall5)),
        f3(mean((o) => o.mrr)),
        f3(mean((_, b) => b.mrr)),
        points(mean((o, b) => o.mrr - b.mrr)),
      ],
    ],
    notes: [
      'The baseline a user could build in an afternoon: BM25F over the split name (3), description (1) and parameter text (0.5), stemmed, stopwords removed, repeated query tokens counted once.',
      'Each set weighs the same in the mean, whatever its number of queries.',
    ],
  };
}

function speedTable(rows: SpeedRow[], settings: Record<string, unknown>): Table {
  const ours = (size: number) => rows.find((r) => r.size === size);
  return {
    title: 'Speed: index build and query latency',
    columns: [
      'tools',
      'library',
      'build ms',
      'query p50 ms',
      'query p99 ms',
      'ours vs it (p50)',
      'ours vs it (build)',
      'builds / queries timed',
    ],
    rows: rows.map((r) => {
      const o = ours(r.size) as SpeedRow;
      const self = o === r;
      return [
        int(r.size),
        r.peer,
        ms(r.buildMs),
        ms(r.queryMedianMs),
        ms(r.queryP99Ms),
        self ? '' : versus(o.queryMedianMs, r.queryMedianMs),
        self ? '' : versus(o.buildMs, r.buildMs),
        `${r.builds} / ${r.queries}`,
      ];
    }),
    notes: [
      `Queries: the labelled sets' raw requests, interleaved; ${String(settings.warmup)} untimed warm-up queries, then up to ${String(settings.maxQueries)} timed (time budget ${String(settings.budgetMs)} ms per library and size); limit ${String(settings.limit)} names.`,
      'The AI SDK keeps no index (each search scans every deferred tool), so its "build" is only registering the tools; the seed substring search has none either.',
      'Build: median of fresh builds over fresh tool objects whose text differs per build (no cache can serve them), after one warm-up build; ours builds lazily, so its build is the first search.',
      'Catalogues: the first N seal-tools tools (4,076 is all of them); 10,000 is every bench catalogue combined, repeated with renamed copies (name__2, ...) to reach 10,000 unique names.',
    ],
  };
}

function reuseTable(rows: ReuseRow[]): Table {
  return {
    title: 'tool-search-layer: one search when the host passes a new tools array',
    columns: ['tools', 'same array ms', 'new array, same objects ms', 'new array, equal copies ms', 'runs'],
    rows: rows.map((r) => [int(r.size), ms(r.warmMs), ms(r.newArrayMs), ms(r.equalToolsMs), String(r.runs)]),
    notes: [
      'Medians. Adapters rebuild their arrays every step, so the index is cached by array, by tool objects and by content.',
    ],
  };
}

function prepareTable(rows: PrepareRow[]): Table {
  return {
    title: 'tool-search-layer: prepare per round',
    columns: ['tools', 'history messages', 'same session p50 ms', 'same session p99 ms', 'new session p50 ms', 'runs'],
    rows: rows.map((r) => [
      int(r.tools),
      int(r.messages),
      ms(r.replayMedianMs),
      ms(r.replayP99Ms),
      ms(r.firstRoundMedianMs),
      String(r.runs),
    ]),
    notes: [
      'History: turns of a user request, a search_tools call with the JSON of a real layer.search result, a call of the best tool found with its result, and an answer.',
      'Same session: the round replays the whole history with nothing new to store. New session: every event is read and stored once.',
    ],
  };
}

function tokensTable(rows: TokenRow[]): Table {
  const saving = (a: number, b: number) => `${(100 * (1 - b / a)).toFixed(1)}%`;
  return {
    title: 'Tokens of the tools block (o200k_base)',
    columns: [
      'catalogue',
      'tools',
      'without layer',
      'with: first round',
      'with: after 5 discoveries',
      'tools sent then',
      'saving after 5',
    ],
    rows: rows.map((r) => [
      r.set,
      int(r.tools),
      int(r.without),
      int(r.firstRound),
      int(r.afterFive),
      String(r.afterFiveTools),
      saving(r.without, r.afterFive),
    ]),
    notes: [
      'Serialised as the OpenAI chat tools array, JSON: [{ type: "function", function: { name, description, parameters } }]. Without the layer every round sends every tool.',
      'After five discoveries: five real layer.search calls (limit 1, each finding a new tool) fed back as search_tools calls and results in the history, then prepare on a fresh layer; default options.',
      ...rows.filter((r) => r.discovered !== 5).map((r) => `${r.set}: only ${r.discovered} tools were discovered.`),
    ],
  };
}

function searchToolTable(rows: SearchToolRow[]): Table {
  return {
    title: 'Tokens of the search_tools definition alone',
    columns: ['catalogue', 'tools', 'tokens', `< ${int(SEARCH_TOOL_TOKEN_LIMIT)}`],
    rows: rows.map((r) => [r.set, int(r.tools), int(r.tokens), r.underLimit ? 'yes' : 'NO']),
    notes: ['Default options (names list on, default names budget), serialised as one OpenAI tool.'],
  };
}

/** The bundle size table (also used alone to refresh docs/benchmark.md's size section). */
export function sizeTable(rows: SizeRow[]): Table {
  return {
    title: 'Bundle size per entry point',
    columns: ['entry', 'file', 'min', 'min+gzip', 'min+brotli', 'added to the core (min+brotli)', 'target'],
    rows: rows.map((r) => [
      r.entry,
      r.file,
      kb(r.minBytes),
      kb(r.gzipBytes),
      kb(r.brotliBytes),
      r.addedBrotliBytes === undefined ? '' : kb(r.addedBrotliBytes),
      r.entry === '.' ? `${r.brotliBytes <= CORE_SIZE_LIMIT ? 'ok' : 'OVER'} (<= ${kb(CORE_SIZE_LIMIT)})` : '',
    ]),
    notes: [
      'Each package.json export bundled with its dependencies by esbuild (ESM, platform neutral, minified, split at dynamic imports): the entry and every chunk it imports statically, concatenated, then gzip -9 and brotli quality 11 (node:zlib); 1 KB = 1,024 bytes.',
      "'. + x (loaded when used)': a chunk the core imports only when a search, an option or a rare path needs it (search-run: the search's run and the lexical index, with the first search; semantic-stored: the `semantic` option's ranker and its vectors in the store; zh: `locale: 'zh'`; calls: the answer to a call of a tool the model was not shown); the core's row leaves them out, the search-run row is its cost on top of the core, and each other row its cost on top of the core and the search's code (a layer that learns, ranks semantically or refuses a call also searches).",
      "Peer dependencies (ai, openai, @anthropic-ai/sdk, workers types) stay external: an app using one of those adapters has its framework already. The MCP entry imports no MCP SDK (an Agents app has only the v2 client), so nothing of it is left out. 'Added to the core': the entry and the core bundled together, less the core alone, which is what an app that already has the core pays (they share valibot and the core's code).",
    ],
  };
}

function peersTable(peers: BenchResults['peers']): Table {
  return {
    title: 'Libraries and their settings',
    columns: ['library', 'settings'],
    rows: peers.map((p) => [p.name, p.settings]),
    notes: [
      'Every library indexes the tool name, split into words on _ - . and camelCase (the AI SDK splits names itself), and the description; this library and the tuned BM25 also index the parameters.',
    ],
  };
}

/** Every table the results hold, in reading order. */
export function tables(results: BenchResults): Table[] {
  const s = results.settings as Record<string, Record<string, unknown>>;
  const out: Table[] = [peersTable(results.peers)];
  if (results.quality) {
    out.push(qualityTable(results.quality, s.quality?.limit));
    const margin = marginTable(results.quality);
    if (margin) out.push(margin);
    if (results.tuning) out.push(tuningTable(results.tuning, results.quality, 'tool-search-layer', BASELINE));
  }
  if (results.speed) {
    out.push(speedTable(results.speed.peers, s.speed ?? {}));
    if (results.speed.reuse.length) out.push(reuseTable(results.speed.reuse));
    if (results.speed.prepare.length) out.push(prepareTable(results.speed.prepare));
  }
  if (results.tokens) out.push(tokensTable(results.tokens.blocks), searchToolTable(results.tokens.searchTool));
  if (results.size) out.push(sizeTable(results.size));
  return out;
}
