// `npm run build && npx tsx bench/store-indexeddb.ts [--rounds=200] [--warmup=20]`: what the IndexedDB
// store costs a round in real Chromium. The built package runs in the store's test page
// (test/browser/fixture/indexeddb.html, served by Vite); layer.prepare is timed over a 20-message
// history: when nothing changes (one readonly transaction), with a new discovery each round (a read,
// then one readwrite transaction), and a page's first round (opening and creating the database),
// beside the memory store in the same page.
// Prints a table and writes bench/results/store-indexeddb.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createToolSearch, type Message, type Tool } from 'tool-search-layer';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, chromiumVersion, requireChromium } from '../scripts/chromium.mjs';
import { assertDistBuilt } from '../scripts/package-entries.mjs';
import { loadSet } from './data.ts';
import { buildHistory } from './history.ts';
import { renderText } from './table.ts';
import { discoveryQueries } from './tokens.ts';

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const rounds = flag('rounds', 200);
const warmup = flag('warmup', 20);
const historyLength = 20;

interface Scenario {
  catalogue: string;
  tools: readonly Tool[];
  history: Message[];
}

interface Row {
  catalogue: string;
  tools: number;
  store: string;
  round: string;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** IndexedDB writes (put, delete) per timed round: 0 when nothing changes, else 1. */
  writesPerRound: number;
  rounds: number;
}

type Kind = 'nothing changes' | 'a new discovery' | 'first round of a page';
const kinds: readonly Kind[] = ['nothing changes', 'a new discovery', 'first round of a page'];

/** Runs in the page: times `rounds` prepare calls after `warmup` untimed ones, for one store and one kind of round. */
async function timeRounds(arg: {
  tools: unknown[];
  history: unknown[];
  store: 'indexeddb' | 'memory';
  kind: Kind;
  rounds: number;
  warmup: number;
}) {
  const { createToolSearch } = window.toolSearchLayer;
  const { createIndexedDbStore } = window.toolSearchIndexedDb;
  const warnings: string[] = [];
  const run = `${Date.now()}-${Math.random()}`;
  const newLayer = (i: number) =>
    createToolSearch({
      ...(arg.store === 'indexeddb' && { store: createIndexedDbStore({ dbName: `bench-${run}-${i}` }) }),
      logger: { warn: (m) => warnings.push(m) },
    });
  const layer = newLayer(-1);
  const tools = arg.tools as { name: string }[];
  const history = arg.history as never[];
  // A changing round ends the history with a call of the next catalogue tool (a new discovery);
  // cycling through the catalogue, a tool comes back only long after it was evicted (20 kept).
  const messages = (i: number): never[] => {
    if (arg.kind !== 'a new discovery') return history;
    const name = tools[i % tools.length]?.name as string;
    const id = `bench-${i}`;
    return [
      ...history.slice(0, history.length - 2),
      { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: '{}' }] },
      { role: 'tool', toolCallId: id, content: '{"ok":true}' },
    ] as never[];
  };
  // A page's first round: a new layer over a database never opened (for memory, a new layer and session).
  const round = (i: number) =>
    (arg.kind === 'first round of a page' ? newLayer(i) : layer).prepare({
      sessionId: 'bench',
      tools: arg.tools as never[],
      messages: messages(i),
    });
  for (let i = 0; i < arg.warmup; i++) await round(i);
  const proto = IDBObjectStore.prototype;
  const put = proto.put;
  const del = proto.delete;
  let writes = 0;
  proto.put = function (...args) {
    writes++;
    return put.apply(this, args);
  };
  proto.delete = function (...args) {
    writes++;
    return del.apply(this, args);
  };
  const times: number[] = [];
  try {
    for (let i = arg.warmup; i < arg.warmup + arg.rounds; i++) {
      const start = performance.now();
      await round(i);
      times.push(performance.now() - start);
    }
  } finally {
    proto.put = put;
    proto.delete = del;
  }
  return { times, writes, warnings };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

assertDistBuilt();
const github = loadSet('mcp-github');
const seal = loadSet('seal-tools');
const scenarios: Scenario[] = [];
for (const [catalogue, tools, queries] of [
  ['mcp-github', github.tools, discoveryQueries['mcp-github'] ?? []],
  ['seal-tools (first 1,000)', seal.tools.slice(0, 1000), seal.queries.map((q) => q.query)],
] as const) {
  const history = await buildHistory(createToolSearch(), tools as Tool[], queries, historyLength);
  scenarios.push({ catalogue, tools: tools as Tool[], history });
}

const server = await createServer({
  configFile: join(here, '..', 'test', 'browser', 'vite.config.ts'),
  // Cross-origin isolation gives performance.now() 5 µs steps instead of 100 µs.
  server: {
    host: '127.0.0.1',
    port: 0,
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  },
  logLevel: 'warn',
});
await server.listen();
const address = server.httpServer?.address();
const port = typeof address === 'object' && address ? address.port : 0;
const browserPath = requireChromium().path;
const browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_ARGS, headless: true });
const rows: Row[] = [];
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => process.stderr.write(`[bench] page error: ${error.message}\n`));
  // tsx compiles with esbuild's keepNames, which wraps functions in a `__name` helper the page lacks.
  await page.addInitScript('globalThis.__name = (target) => target');
  await page.goto(`http://127.0.0.1:${port}/indexeddb.html`);
  await page.locator('#status', { hasText: 'ready' }).waitFor();
  if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error('the page is not cross-origin isolated');
  for (const scenario of scenarios) {
    for (const store of ['indexeddb', 'memory'] as const) {
      for (const kind of kinds) {
        const run = await page.evaluate(timeRounds, {
          tools: scenario.tools as unknown[],
          history: scenario.history as unknown[],
          store,
          kind,
          rounds,
          warmup,
        });
        if (run.warnings.length > 0) throw new Error(`the layer warned: ${run.warnings.join('; ')}`);
        rows.push({
          catalogue: scenario.catalogue,
          tools: scenario.tools.length,
          store,
          round: kind,
          p50Ms: quantile(run.times, 0.5),
          p90Ms: quantile(run.times, 0.9),
          p99Ms: quantile(run.times, 0.99),
          writesPerRound: store === 'indexeddb' ? run.writes / rounds : Number.NaN,
          rounds,
        });
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const browserVersion = chromiumVersion(browserPath) ?? browserPath;
const ms = (value: number) => value.toFixed(3);
process.stdout.write(
  `${renderText({
    title: `layer.prepare in ${browserVersion}, ${historyLength}-message history, ${rounds} rounds after ${warmup} warm-up (ms)`,
    columns: ['catalogue', 'tools', 'store', 'round', 'p50', 'p90', 'p99', 'IDB writes/round'],
    rows: rows.map((r) => [
      r.catalogue,
      String(r.tools),
      r.store,
      r.round,
      ms(r.p50Ms),
      ms(r.p90Ms),
      ms(r.p99Ms),
      Number.isNaN(r.writesPerRound) ? '-' : r.writesPerRound.toFixed(2),
    ]),
  })}\n`,
);
const out = join(here, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'store-indexeddb.json'),
  `${JSON.stringify({ date: new Date().toISOString(), browser: browserVersion, historyLength, rounds, warmup, rows }, null, 2)}\n`,
);
