// The bridge's own costs: layer.callTool (argument validation included) and prepare, at 1,000 tools.
// Run alone with `npx tsx bench/bridge.ts` (after `npm run build`); `npm run bench` runs it in its speed section.
import { createToolSearch, type SearchResult, type Tool } from 'tool-search-layer';
import type { BenchTool } from './data.ts';
import { median, quantile, timeMs } from './stats.ts';
import type { Table } from './table.ts';

export interface BridgeRow {
  tools: number;
  /** callTool of a discovered tool whose validator is compiled: the steady per-call cost. */
  callP50Ms: number;
  callP99Ms: number;
  /** The first call of each tool: its schema compiled (the first call of all also loads the bridge's chunk). */
  firstCallP50Ms: number;
  /** callTool with arguments that fail the schema: the corrective result built. */
  refusedP50Ms: number;
  /** prepare of a bridge round, the session's block already pinned. */
  prepareP50Ms: number;
  /** The slowest callTool of the hostile patterns (issue 29): the longest the event loop is held by model input. */
  hostileMaxMs: number;
  /** Calls that ran / calls made with arguments built from the schemas (the rest have schemas the builder cannot satisfy). */
  accepted: string;
  runs: number;
}

/** A value of a JSON Schema's type that satisfies simple schemas: the first enum value, or a placeholder. */
function sample(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return argsFor(s);
  return 'x';
}

/** Arguments with every required property of a tool's parameters. */
function argsFor(parameters: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const properties = (parameters?.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(parameters?.required) ? (parameters.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sample(properties[name])]));
}

/** Catastrophic patterns for a backtracking engine (seconds at 30 characters, hours at 40), each with a model argument. */
const hostile = (length: number): { parameters: Record<string, unknown>; arguments: Record<string, unknown> }[] => [
  {
    parameters: { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } },
    arguments: { id: `${'a'.repeat(length)}!` },
  },
  {
    parameters: { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'number' } } },
    arguments: { ['x'.repeat(length)]: 1 },
  },
];

/** The slowest callTool over the hostile patterns, with model arguments of 30 and 10,000 characters. */
async function measureHostile(): Promise<number> {
  const layer = createToolSearch({ exposure: 'bridge', logger: { warn() {} } });
  const times: number[] = [];
  for (const { parameters, arguments: args } of [...hostile(30), ...hostile(10_000)]) {
    const tools = [{ name: 'target', parameters }, ...Array.from({ length: 6 }, (_, i) => ({ name: `filler_${i}` }))];
    const context = { sessionId: 'hostile', tools };
    await layer.search(context, { query: 'target' });
    times.push(await timeMs(() => layer.callTool(context, { name: 'target', arguments: args })));
  }
  return Math.max(...times);
}

/** Times callTool and prepare in bridge mode over a catalogue, discovering tools through real searches. */
export async function measureBridge(
  catalogue: readonly BenchTool[],
  queries: readonly string[],
  runs: number,
): Promise<BridgeRow> {
  const layer = createToolSearch({ exposure: 'bridge', maxDiscoveredKeep: 0, logger: { warn() {} } });
  const context = { sessionId: 'bench', tools: catalogue as readonly Tool[] };
  const found = new Map<string, Tool>();
  for (const query of queries) {
    if (found.size >= 200) break;
    const result = (await layer.search(context, { query, limit: 5 })) as SearchResult;
    for (const tool of result.tools ?? []) found.set(tool.name, tool as Tool);
  }
  const tools = [...found.values()];
  const first: number[] = [];
  let accepted = 0;
  for (const tool of tools) {
    const args = argsFor(tool.parameters as Record<string, unknown>);
    let ok = false;
    first.push(
      await timeMs(async () => (ok = (await layer.callTool(context, { name: tool.name, arguments: args })).ok)),
    );
    if (ok) accepted++;
  }
  const call: number[] = [];
  const refused: number[] = [];
  const prepare: number[] = [];
  await layer.prepare(context);
  for (let i = 0; i < runs; i++) {
    const tool = tools[i % tools.length] as Tool;
    const args = argsFor(tool.parameters as Record<string, unknown>);
    call.push(await timeMs(() => layer.callTool(context, { name: tool.name, arguments: args })));
    // Every required property null: refused unless the schema allows null there (or requires nothing).
    const wrong = Object.fromEntries(Object.keys(args).map((name) => [name, null]));
    refused.push(await timeMs(() => layer.callTool(context, { name: tool.name, arguments: JSON.stringify(wrong) })));
    prepare.push(await timeMs(() => layer.prepare(context)));
  }
  return {
    tools: catalogue.length,
    callP50Ms: median(call),
    callP99Ms: quantile(call, 0.99),
    firstCallP50Ms: median(first),
    refusedP50Ms: median(refused),
    prepareP50Ms: median(prepare),
    hostileMaxMs: await measureHostile(),
    accepted: `${accepted} / ${tools.length}`,
    runs,
  };
}

const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The bridge row as a table for the bench output. */
export function bridgeTable(row: BridgeRow): Table {
  return {
    title: `Bridge (exposure: 'bridge') at ${row.tools.toLocaleString('en-US')} tools (seal-tools)`,
    columns: [
      'callTool p50',
      'callTool p99',
      'first call of a tool p50',
      'refused call p50',
      'prepare p50',
      'hostile pattern, max',
      'ran',
    ],
    rows: [
      [
        `${ms(row.callP50Ms)} ms`,
        `${ms(row.callP99Ms)} ms`,
        `${ms(row.firstCallP50Ms)} ms`,
        `${ms(row.refusedP50Ms)} ms`,
        `${ms(row.prepareP50Ms)} ms`,
        `${ms(row.hostileMaxMs)} ms`,
        row.accepted,
      ],
    ],
    notes: [
      `${row.runs} runs over the tools found by the seal-tools queries; arguments built from each schema's required properties.`,
      'Hostile pattern: the slowest callTool over `^(a+)+$` (a `pattern`) and `^(x+x+)+y$` (a `patternProperties` key) with model arguments of 30 and 10,000 characters; SPEC 12 bounds it at 50 ms.',
      'A refused call sends null for every required property (passed as a JSON string), so its schema check fails and a corrective result is built.',
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadSet } = await import('./data.ts');
  const { renderText } = await import('./table.ts');
  const seal = loadSet('seal-tools');
  const row = await measureBridge(
    seal.tools.slice(0, 1000),
    seal.queries.map((q) => q.query),
    2000,
  );
  process.stdout.write(`${renderText(bridgeTable(row))}\n`);
}
