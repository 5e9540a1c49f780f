// Costs only this library has: reusing its index when adapters pass new arrays, and prepare per round.
import { createToolSearch, type Tool } from 'tool-search-layer';
import type { BenchTool } from './data.ts';
import { buildHistory } from './history.ts';
import { median, quantile, timeMs } from './stats.ts';

export interface ReuseRow {
  size: number;
  /** The same array again: the cache hit every layer gets. */
  warmMs: number;
  /** A new array holding the same tool objects, as adapters rebuild it every step. */
  newArrayMs: number;
  /** A new array of equal copies of the tools (fresh objects, same content). */
  equalToolsMs: number;
  runs: number;
}

export interface PrepareRow {
  tools: number;
  messages: number;
  /** The same session and history again (nothing new to store): the steady per-round cost. */
  replayMedianMs: number;
  replayP99Ms: number;
  /** The first round of a new session over the whole history (every event read and stored). */
  firstRoundMedianMs: number;
  runs: number;
}

const query = (queries: readonly string[], i: number) => ({ query: queries[i % queries.length] as string });

/** Median time of one search: on the warm array, a new array of the same objects, and a new array of copies. */
export async function measureReuse(
  size: number,
  tools: readonly BenchTool[],
  queries: readonly string[],
  runs: number,
): Promise<ReuseRow> {
  const layer = createToolSearch();
  const ctx = (array: readonly Tool[]) => ({ sessionId: 'reuse', tools: array });
  await layer.search(ctx(tools), query(queries, 0));
  const warm: number[] = [];
  const newArray: number[] = [];
  const equal: number[] = [];
  for (let i = 0; i < runs; i++) {
    warm.push(await timeMs(() => layer.search(ctx(tools), query(queries, i))));
    const array = tools.slice();
    newArray.push(await timeMs(() => layer.search(ctx(array), query(queries, i))));
    const copies = structuredClone(tools) as BenchTool[];
    equal.push(await timeMs(() => layer.search(ctx(copies), query(queries, i))));
  }
  return { size, warmMs: median(warm), newArrayMs: median(newArray), equalToolsMs: median(equal), runs };
}

/** prepare latency per round over a realistic history of `length` messages (searches from real layer.search calls). */
export async function measurePrepare(
  tools: readonly BenchTool[],
  queries: readonly string[],
  length: number,
  runs: number,
): Promise<PrepareRow> {
  const messages = await buildHistory(createToolSearch(), tools, queries, length);
  const layer = createToolSearch({ maxDiscoveredKeep: 20 });
  const round = (sessionId: string) => layer.prepare({ sessionId, tools, messages });
  await round('replay');
  const replay: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < runs; i++) {
    replay.push(await timeMs(() => round('replay')));
    first.push(await timeMs(() => round(`first-${i}`)));
  }
  return {
    tools: tools.length,
    messages: messages.length,
    replayMedianMs: median(replay),
    replayP99Ms: quantile(replay, 0.99),
    firstRoundMedianMs: median(first),
    runs,
  };
}
