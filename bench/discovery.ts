// A session that discovers 3,000 tools with `maxDiscoveredKeep: 0` (no limit): each discovery is a search and the
// next round's prepare, with the history a host sends (every search call and its result). The last 500 discoveries
// show whether a large set slows a round down; SPEC 12 asks each to stay under 5 ms.
// Run with `npx tsx bench/discovery.ts` after `npm run build`.
import { createToolSearch, type Message, type Tool } from 'tool-search-layer';
import { median, quantile, timeMs } from './stats.ts';

export interface DiscoveryRow {
  readonly tools: number;
  readonly discoveries: number;
  readonly kept: number;
  /** search + prepare of each of the last 500 discoveries. */
  readonly lastP50Ms: number;
  readonly lastP99Ms: number;
  readonly lastMaxMs: number;
}

/** Times `discoveries` discoveries in one session over a catalogue of `tools` tools. */
export async function measureDiscovery(tools = 4_000, discoveries = 3_000): Promise<DiscoveryRow> {
  const catalogue: Tool[] = Array.from({ length: tools }, (_, i) => ({
    name: `tool_${i}`,
    description: `Does task number ${i} of the catalogue`,
    parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
  }));
  const layer = createToolSearch({ maxDiscoveredKeep: 0, logger: { warn() {} } });
  const messages: Message[] = [];
  const times: number[] = [];
  let kept = 0;
  for (let i = 0; i < discoveries; i++) {
    const context = { sessionId: 'bench', tools: catalogue, messages };
    times.push(
      await timeMs(async () => {
        const query = JSON.stringify({ query: `tool_${i}`, limit: 1 });
        const result = await layer.search(context, query);
        messages.push(
          { role: 'assistant', toolCalls: [{ id: `c${i}`, name: 'search_tools', arguments: query }] },
          { role: 'tool', toolCallId: `c${i}`, content: JSON.stringify(result) },
        );
        kept = (await layer.prepare(context)).discovered.length;
      }),
    );
  }
  const last = times.slice(-500);
  return {
    tools,
    discoveries,
    kept,
    lastP50Ms: median(last),
    lastP99Ms: quantile(last, 0.99),
    lastMaxMs: Math.max(...last),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const row = await measureDiscovery();
  process.stdout.write(
    `${row.discoveries.toLocaleString('en-US')} discoveries over ${row.tools.toLocaleString('en-US')} tools, ` +
      `maxDiscoveredKeep 0: ${row.kept.toLocaleString('en-US')} kept; the last 500 (search + prepare, history ` +
      `included): p50 ${row.lastP50Ms.toFixed(2)} ms, p99 ${row.lastP99Ms.toFixed(2)} ms, max ${row.lastMaxMs.toFixed(2)} ms\n`,
  );
}
