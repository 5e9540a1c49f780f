// `npm run bench`: quality, speed, tokens and size in one process; prints the tables and writes
// bench/results/latest.{json,md}. Flags: --quick (small samples), --only=quality,learn,semantic,speed,tokens,size,cost.
// A quick or partial run writes bench/results/run.tmp.json instead, so the published figures stay whole.
// --embedder ./module.ts (exporting `embed`) adds the ranker hook's comparison (bench/semantic.ts), printed only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bridgeTable, measureBridge } from './bridge.ts';
import { costSection } from './cost-run.ts';
import { type BenchSet, combineCatalogues, labelledSets, loadSet } from './data.ts';
import { learnSection } from './learn.ts';
import { peers, speedPeers } from './peers/index.ts';
import { measureQuality } from './quality.ts';
import { rankingSummary, updateReadme } from './readme.ts';
import { type BenchResults, tables } from './report.ts';
import { interleave } from './sample.ts';
import { loadEmbedder, measureSemantic, type SemanticRow, semanticTable } from './semantic.ts';
import { semanticSection } from './semantic-section.ts';
import { measureSize } from './size.ts';
import { measureSpeed, type SpeedCatalogue } from './speed.ts';
import { measurePrepare, measureReuse } from './speed-layer.ts';
import { renderMarkdown, renderText, type Table } from './table.ts';
import { discoveryQueries, measureSearchTool, measureTokens } from './tokens.ts';
import { readTuning } from './tune-report.ts';
import { measureVectorsColdStart } from './vectors-cold-start.ts';

const sections = ['quality', 'learn', 'semantic', 'speed', 'tokens', 'size', 'cost'] as const;
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const embedderAt = args.findIndex((a) => a === '--embedder' || a.startsWith('--embedder='));
const embedderPath = embedderAt < 0 ? undefined : (args[embedderAt]?.split('=')[1] ?? args[embedderAt + 1]);
if (embedderAt >= 0 && !embedderPath) throw new Error('[bench] --embedder needs the path of a module exporting embed');
const unknown = only?.filter((s) => !(sections as readonly string[]).includes(s)) ?? [];
if (unknown.length)
  throw new Error(`[bench] unknown section(s) ${unknown.join(', ')}; use --only=${sections.join(',')}`);
const selected = sections.filter((s) => !only || only.includes(s));

const here = dirname(fileURLToPath(import.meta.url));
const settings = {
  quality: { limit: 100, ...(quick ? { maxQueries: 30 } : {}) },
  speed: quick
    ? { sizes: [100, 1000, 4076, 10000], limit: 5, builds: 2, warmup: 5, maxQueries: 30, minQueries: 5, budgetMs: 500 }
    : {
        sizes: [100, 1000, 4076, 10000],
        limit: 5,
        builds: 10,
        warmup: 200,
        maxQueries: 1000,
        minQueries: 30,
        budgetMs: 5000,
      },
  layer: quick
    ? { reuseRuns: 3, prepareTools: 1000, prepareMessages: [200, 2000], prepareRuns: 3 }
    : { reuseRuns: 30, prepareTools: 1000, prepareMessages: [200, 2000], prepareRuns: 200 },
};

const started = performance.now();
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sets = new Map<string, BenchSet>();
const set = (name: string): BenchSet => {
  const known = sets.get(name);
  if (known) return known;
  const loaded = loadSet(name);
  sets.set(name, loaded);
  return loaded;
};
const allSets = [...labelledSets, 'mcp-github', 'mcp-npm-capture'];

const results: BenchResults = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${cpus()[0]?.model ?? 'unknown'} (${cpus().length} cores)`,
  quick,
  seconds: 0,
  peers: speedPeers.map(({ name, settings }) => ({ name, settings })),
  settings,
};

if (selected.includes('quality')) {
  log('quality...');
  results.quality = await measureQuality(labelledSets.map(set), peers, settings.quality);
  const tuning = readTuning(join(here, 'results', 'tune.json'));
  if (tuning) results.tuning = tuning;
}

// Learning from use: recall before and after feeding, with the leave-one-set-out folds, and its cost per call.
let learning: Awaited<ReturnType<typeof learnSection>> = [];
if (selected.includes('learn')) {
  log('learning from use...');
  learning = await learnSection(quick);
}

let semanticTables: Awaited<ReturnType<typeof semanticSection>> = [];
if (selected.includes('semantic')) {
  log('the semantic hook at its defaults (GloVe + SIF and the oracle)...');
  semanticTables = await semanticSection(labelledSets.map(set), quick);
}

let semantic: SemanticRow[] | undefined;
let vectorsColdStart: Table | undefined;
if (embedderPath) {
  log(`semantic (${embedderPath})...`);
  semantic = await measureSemantic(labelledSets.map(set), await loadEmbedder(embedderPath), settings.quality);
}

if (selected.includes('speed')) {
  log('speed...');
  const seal = set('seal-tools').tools;
  const catalogues: SpeedCatalogue[] = settings.speed.sizes.map((size) => ({
    size,
    tools: size <= seal.length ? seal.slice(0, size) : combineCatalogues(allSets.map(set), size),
  }));
  const queries = interleave(labelledSets.map((n) => set(n).queries.map((q) => q.query)));
  const speedRows = await measureSpeed(catalogues, speedPeers, { ...settings.speed, queries });
  log('speed of the layer itself...');
  const reuse = [];
  for (const c of catalogues) reuse.push(await measureReuse(c.size, c.tools, queries, settings.layer.reuseRuns));
  const prepare = [];
  const sealQueries = set('seal-tools').queries.map((q) => q.query);
  for (const length of settings.layer.prepareMessages) {
    prepare.push(
      await measurePrepare(seal.slice(0, settings.layer.prepareTools), sealQueries, length, settings.layer.prepareRuns),
    );
  }
  results.speed = { peers: speedRows, reuse, prepare };
  log('bridge (callTool at 1,000 tools)...');
  results.bridge = await measureBridge(seal.slice(0, 1000), sealQueries, settings.layer.prepareRuns * 10);
  log('first search of a cold isolate with the semantic hook...');
  vectorsColdStart = await measureVectorsColdStart(quick ? 2 : 5);
}

if (selected.includes('tokens')) {
  log('tokens...');
  const blocks = [];
  for (const name of ['mcp-github', 'mcp-npm-capture', 'seal-tools']) {
    const s = set(name);
    const queries = s.queries.length ? s.queries.map((q) => q.query) : (discoveryQueries[name] ?? []);
    blocks.push(await measureTokens(name, s.tools, queries));
  }
  const searchTool = [];
  for (const name of allSets) searchTool.push(await measureSearchTool(name, set(name).tools));
  searchTool.push(await measureSearchTool('all combined (10,000)', combineCatalogues(allSets.map(set), 10000)));
  results.tokens = { blocks, searchTool };
}

if (selected.includes('size')) {
  log('size...');
  results.size = await measureSize(join(here, '..', 'package.json'));
}

// Measured sessions through the adapters; a whole run also rewrites the cost tables of README.md and docs/cost.md.
let cost: Awaited<ReturnType<typeof costSection>> | undefined;
if (selected.includes('cost')) {
  log('cost (sessions through the adapters)...');
  cost = await costSection(!quick && selected.length === sections.length);
}

results.seconds = (performance.now() - started) / 1000;
const rendered = [
  ...tables(results),
  ...learning,
  ...semanticTables,
  ...(results.bridge ? [bridgeTable(results.bridge)] : []),
  ...(vectorsColdStart ? [vectorsColdStart] : []),
  ...(cost
    ? cost.tables.map((t) => ({ ...t, notes: [...(t.notes ?? []), ...(t === cost?.tables[0] ? [cost.summary] : [])] }))
    : []),
];
const header = `Benchmark of ${new Date(results.date).toUTCString()}: Node ${results.node}, ${results.cpu}${quick ? ', --quick' : ''}; ${results.seconds.toFixed(0)} s.`;
process.stdout.write(`${header}\n\n${rendered.map(renderText).join('\n\n')}\n`);
if (semantic && embedderPath) process.stdout.write(`\n${renderText(semanticTable(semantic, embedderPath))}\n`);

const out = join(here, 'results');
mkdirSync(out, { recursive: true });
const whole = !quick && selected.length === sections.length;
writeFileSync(join(out, whole ? 'latest.json' : 'run.tmp.json'), `${JSON.stringify(results, null, 2)}\n`);
if (whole) {
  const markdown = [
    `## Benchmark results`,
    '',
    `${results.date.slice(0, 10)}, Node ${results.node}, ${results.cpu}; \`npm run bench\` took ${results.seconds.toFixed(0)} s.`,
    '',
    ...rendered.map((t) => `${renderMarkdown(t)}\n`),
  ];
  writeFileSync(join(out, 'latest.md'), `${markdown.join('\n')}`);
  const tokens = rendered.find((t) => t.title.startsWith('Tokens of the tools block'));
  // The full tables live in docs/benchmark.md; the README keeps only the token figures of its opening.
  updateReadme(join(here, '..', 'docs', 'benchmark.md'), { bench: markdown.slice(2).join('\n') });
  updateReadme(join(here, '..', 'README.md'), {
    ...(tokens && { tokens: renderMarkdown({ ...tokens, title: '' }).replace(/^### \n+/, '') }),
    ...(results.quality && { ranking: rankingSummary(results.quality) }),
  });
}
log(
  `done in ${results.seconds.toFixed(0)} s; wrote bench/results/${whole ? 'latest.json and latest.md' : 'run.tmp.json'}`,
);
