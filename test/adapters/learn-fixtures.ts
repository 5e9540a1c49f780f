// Shared by the learning tests of every adapter: one session searches "weather forecast umbrella" and calls
// get_forecast; afterwards the layer must hold credit for (get_forecast, umbrella), and a later search must rank
// differently. "umbrella" matches no tool's text, so before learning a search for it finds nothing.
import { createToolSearch, type ToolSearch } from 'tool-search-layer';
import { expect } from 'vitest';
import { catalogue, recordingLogger } from '../core/fixtures.ts';

/** The query every learning session searches with. */
export const LEARN_QUERY = 'weather forecast umbrella';
/** The tool every learning session calls after its search, and valid arguments for it. */
export const LEARN_TOOL = 'get_forecast';
export const LEARN_ARGS = { city: 'Oslo', days: '2' };

/** A layer that learns, with warnings kept out of the test output. */
export function learningLayer(): ToolSearch {
  return createToolSearch({ learn: true, logger: recordingLogger() });
}

/** The names a fresh session's search for `query` returns, in order. */
async function ranked(layer: ToolSearch, query: string): Promise<string[]> {
  const result = await layer.search({ sessionId: `probe-${Math.random()}`, tools: catalogue }, { query });
  return 'tools' in result ? result.tools.map((tool) => tool.name) : [];
}

/** Checks the layer has learned nothing yet: no credit, and the keyword ranking alone. */
export async function expectUntaught(layer: ToolSearch): Promise<void> {
  expect(await layer.inspectLearned()).toEqual([]);
  expect(await ranked(layer, 'umbrella')).toEqual([]);
  expect((await ranked(layer, 'weather umbrella'))[0]).toBe('get_weather');
}

/** Checks the session taught the layer: credit for (get_forecast, umbrella), and searches ranked by it. */
export async function expectTaught(layer: ToolSearch): Promise<void> {
  const learned = await layer.inspectLearned();
  const credit = learned.find((entry) => entry.tool === LEARN_TOOL && entry.term === 'umbrella');
  expect(credit?.credit ?? 0, JSON.stringify(learned)).toBeGreaterThan(0);
  // Only the tool called after the search gets credit.
  expect(new Set(learned.map((entry) => entry.tool))).toEqual(new Set([LEARN_TOOL]));
  expect(await ranked(layer, 'umbrella')).toEqual([LEARN_TOOL]);
  expect((await ranked(layer, 'weather umbrella'))[0]).toBe(LEARN_TOOL);
}
