// Learning from use on a catalogue nothing here was fitted on: ToolLens (COLT, Qu et al., CIKM 2024, arXiv
// 2405.16089), 464 RapidAPI-style tools, 16,893 training requests and 1,877 test requests, most needing two or three
// tools together. The paper publishes trained retrievers' recall@5 and C@5 (every tool a request needs in the top 5)
// on its test split; here its training split is fed as sessions through the public API and the test split searched,
// learning off against on, at 500, 2,000, 8,000 and all sessions fed.
//
// The data is not in this repository (its source repository has no license file). Get it from
// https://github.com/quchangle1/COLT (datasets/ToolLens: corpus.jsonl, queries.jsonl, qrels/train.tsv, qrels/test.tsv)
// and run:   TOOLLENS_DIR=/path/to/ToolLens npx tsx bench/toollens.ts   (or pass the folder as the first argument)
// Any folder of COLT's in the same format (datasets/ToolBenchG2, datasets/ToolBenchG3) runs the same way.
//
// ToolLens is held out of every fit: no weight of the library is fitted on it; bench/TUNING.md says which choices of
// structure were made with its figures in view.
// For trials: LEARN='{"memoryBytes":8000000}' adds learn options to every layer; VOTES='[{"neighbours":10,"learn":
// {"memoryWeight":8},"set":{"sets":1}}]' searches the test split once more after each point per trial (the memory's vote
// settings, learn options under "learn", the tool sets' vote settings under "set").
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Tool } from '../src/base/types.ts';
import { createMemoryStore, createToolSearch } from '../src/index.ts';
import { VOTE } from '../src/learn/memory.ts';
import { SET_VOTE } from '../src/learn/set-vote.ts';
import type { BenchQuery } from './data.ts';
import { feedSession, recall, type Scores, shuffled } from './learn-sim.ts';

/** The text between `start` and the next `end` (or the end of the line), from `from` on. */
function between(line: string, start: string, end: string | undefined): string {
  const at = line.indexOf(start);
  if (at < 0) return '';
  const from = at + start.length;
  const to = end === undefined ? -1 : line.indexOf(end, from);
  return (to < 0 ? line.slice(from) : line.slice(from, to)).trim();
}

interface Param {
  name?: string;
  type?: string;
  description?: string;
}

const params = (text: string): Param[] => {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as Param[]) : [];
  } catch {
    return [];
  }
};

const jsonType = (type: string | undefined): string => {
  const t = (type ?? '').toUpperCase();
  if (t === 'NUMBER' || t === 'INTEGER') return t === 'NUMBER' ? 'number' : 'integer';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'ARRAY') return 'array';
  if (t === 'OBJECT') return 'object';
  return 'string';
};

/** A corpus line as a Tool: its name from the tool's and the API's names, made valid for every provider (64 chars). */
function toTool(text: string, taken: Set<string>): Tool {
  const toolName = between(text, 'tool_name:', ', api_name:');
  const apiName = between(text, 'api_name:', ', api_description:');
  const description = between(text, 'api_description:', ', required_params:');
  const required = params(between(text, 'required_params: ', ', optional_params:'));
  const optional = params(between(text, 'optional_params: ', ', return_schema:'));
  const slug = (s: string) =>
    s
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase();
  let name = `${slug(toolName)}__${slug(apiName)}`.slice(0, 60) || 'tool';
  for (let k = 2; taken.has(name); k++) name = `${name.slice(0, 58)}_${k}`;
  taken.add(name);
  const properties: Record<string, { type: string; description?: string }> = {};
  for (const p of [...required, ...optional]) {
    if (typeof p.name !== 'string' || p.name === '') continue;
    properties[p.name] = { type: jsonType(p.type), ...(p.description ? { description: p.description } : {}) };
  }
  const requiredNames = required.map((p) => p.name).filter((n): n is string => typeof n === 'string' && n !== '');
  return {
    name,
    description: description || `${toolName} ${apiName}`,
    parameters: { type: 'object', properties, ...(requiredNames.length ? { required: requiredNames } : {}) },
  };
}

const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

/** ToolLens as the bench uses it: the tools, and the train and test requests with the tools each needs. */
export function loadToolLens(dir: string): { tools: Tool[]; train: BenchQuery[]; test: BenchQuery[] } {
  const taken = new Set<string>();
  const byId = new Map<string, string>();
  const tools: Tool[] = [];
  for (const line of lines(join(dir, 'corpus.jsonl'))) {
    const row = JSON.parse(line) as { _id: string; text: string };
    const tool = toTool(row.text, taken);
    tools.push(tool);
    byId.set(String(row._id), tool.name);
  }
  const text = new Map<string, string>();
  for (const line of lines(join(dir, 'queries.jsonl'))) {
    const row = JSON.parse(line) as { _id: string; text: string };
    text.set(String(row._id), row.text);
  }
  const split = (file: string): BenchQuery[] => {
    const relevant = new Map<string, string[]>();
    for (const line of lines(join(dir, 'qrels', file)).slice(1)) {
      const [q, c] = line.split('\t');
      const name = byId.get(String(c));
      if (q === undefined || name === undefined) continue;
      const list = relevant.get(q) ?? relevant.set(q, []).get(q);
      if (!list?.includes(name)) list?.push(name);
    }
    return [...relevant].flatMap(([q, names]) => {
      const query = text.get(q);
      return query === undefined ? [] : [{ query, relevant: names }];
    });
  };
  return { tools, train: split('train.tsv'), test: split('test.tsv') };
}

/** The columns of the curve: learn options per column, the defaults last. */
export const COLUMNS: Readonly<Record<string, object>> = {
  'table only': { memoryWeight: 0, setWeight: 0, modelWeight: 0 },
  'table and memory': { setWeight: 0, modelWeight: 0 },
  'table, memory and sets': { modelWeight: 0 },
  'all four: the trained model too (the defaults)': {},
};

/** Off, then on after each point of the curve (cumulatively fed), per column. */
export async function runToolLens(
  dir: string,
  points: readonly number[],
  columns: Readonly<Record<string, object>> = COLUMNS,
): Promise<{ off: Scores; curve: { fed: number; on: Map<string, Scores> }[]; tools: number; tested: number }> {
  const { tools, train: ordered, test } = loadToolLens(dir);
  // The training split is ordered by scene; sessions arrive in no such order, so it is fed shuffled (a fixed seed).
  const train = shuffled(ordered, 0x5eed);
  const options = { maxSearchResults: 5, logger: { warn() {} } };
  const off = await recall(createToolSearch(options), tools, test, 'off');
  const store = createMemoryStore({ maxSessions: 200_000 });
  const extra = JSON.parse(process.env.LEARN ?? '{}') as object;
  const feeder = createToolSearch({ ...options, store, learn: { scope: 'toollens', ...extra } });
  const curve: { fed: number; on: Map<string, Scores> }[] = [];
  let fed = 0;
  for (const point of points) {
    for (; fed < Math.min(point, train.length); fed++)
      await feedSession(feeder, tools, `feed-${fed}`, train[fed] as BenchQuery);
    await feeder.flush();
    const on = new Map<string, Scores>();
    for (const [name, learn] of Object.entries(columns)) {
      const layer = createToolSearch({ ...options, store, learn: { scope: 'toollens', ...extra, ...learn } });
      // The model of the memory this layer reads trained before it is tested (a layer trains it in the background
      // from its first search on).
      await layer.search({ sessionId: 'warm', tools }, { query: (test[0] as BenchQuery).query });
      await layer.flush();
      on.set(name, await recall(layer, tools, test, name));
    }
    for (const { learn, set, ...trial } of JSON.parse(process.env.VOTES ?? '[]') as {
      learn?: object;
      set?: object;
    }[]) {
      const shipped = { ...VOTE };
      const shippedSets = { ...SET_VOTE };
      Object.assign(VOTE, trial);
      Object.assign(SET_VOTE, set);
      const layer = createToolSearch({ ...options, store, learn: { scope: 'toollens', ...extra, ...learn } });
      const s = await recall(layer, tools, test, 'trial');
      console.log(
        `fed ${fed} ${JSON.stringify({ learn, set, ...trial })}: ${(s.r5 * 100).toFixed(1)} / ${(s.c5 * 100).toFixed(1)}`,
      );
      Object.assign(VOTE, shipped);
      Object.assign(SET_VOTE, shippedSets);
    }
    curve.push({ fed, on });
  }
  return { off, curve, tools: tools.length, tested: test.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.env.TOOLLENS_DIR ?? process.argv[2];
  if (!dir)
    throw new Error('bench/toollens.ts: set TOOLLENS_DIR (or pass the folder) to a copy of COLT’s datasets/ToolLens');
  const points = (process.env.TOOLLENS_POINTS ?? '500,2000,8000,Infinity').split(',').map(Number);
  const pct = (s: Scores) => `${(s.r5 * 100).toFixed(1)} / ${(s.c5 * 100).toFixed(1)}`;
  const run = await runToolLens(dir, points);
  console.log(`${basename(dir)}: ${run.tools} tools, ${run.tested} test requests; recall@5 / C@5 (%)`);
  console.log(`learn off: ${pct(run.off)}`);
  for (const { fed, on } of run.curve)
    console.log(`fed ${fed}: ${[...on].map(([name, s]) => `${name}: ${pct(s)}`).join('   ')}`);
}
