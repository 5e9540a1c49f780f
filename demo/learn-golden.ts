// "Would it learn my users' words?": the visitor's queries split in two. Every other query is a session that
// searched and then called its expected tools (fed through `prepare`, as a host's history holds it); the rest are
// then searched in fresh sessions, learning on against off (the `learn` option, docs/ranking.md).
import {
  createMemoryStore,
  createToolSearch,
  type Message,
  type Tool,
  type ToolSearchOptions,
} from 'tool-search-layer';
import type { GoldenQuery } from './golden.ts';

/** One held-out query: where its expected tools ranked in the first five, learning off and on. */
export interface LearnOutcome {
  readonly query: string;
  readonly off: number;
  readonly on: number;
}

/** The split and the recall@5 of the held-out half, off and on. */
export interface LearnReport {
  readonly fed: readonly GoldenQuery[];
  readonly outcomes: readonly LearnOutcome[];
  readonly off: number;
  readonly on: number;
}

/** A session's history: the request, the search with its result, then each expected tool called with a result. */
function sessionOf(query: string, result: unknown, expected: readonly string[]): Message[] {
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: 'search', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: 'search', content: JSON.stringify(result) },
    { role: 'assistant', toolCalls: expected.map((name, i) => ({ id: `call${i}`, name, arguments: '{}' })) },
    ...expected.map((_, i): Message => ({ role: 'tool', toolCallId: `call${i}`, content: '{"ok":true}' })),
  ];
}

const recall5 = (names: readonly string[], expected: readonly string[]) =>
  expected.filter((name) => names.slice(0, 5).includes(name)).length / expected.length;

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** Feeds every other query as a session, then scores the others with learning off and on. */
export async function evaluateLearning(
  options: ToolSearchOptions,
  tools: readonly Tool[],
  queries: readonly GoldenQuery[],
): Promise<LearnReport> {
  const fed = queries.filter((_, i) => i % 2 === 0);
  const held = queries.filter((_, i) => i % 2 === 1);
  const base = { ...options, maxSearchResults: 5, exposure: 'tools' as const };
  const store = createMemoryStore();
  const learner = createToolSearch({ ...base, store, learn: { scope: 'playground' } });
  for (const [i, q] of fed.entries()) {
    const sessionId = `fed-${i}`;
    const result = await learner.search({ sessionId, tools }, { query: q.query });
    await learner.prepare({ sessionId, tools, messages: sessionOf(q.query, result, q.expected) });
  }
  // The rounds wrote their credit in the background; the held-out searches should see all of it.
  await learner.flush();
  const off = createToolSearch({ ...base, store: createMemoryStore() });
  const top = async (layer: typeof off, query: string, sessionId: string) => {
    const result = await layer.search({ sessionId, tools }, { query });
    return 'tools' in result ? result.tools.map((tool) => tool.name) : [];
  };
  const outcomes: LearnOutcome[] = [];
  for (const [i, q] of held.entries()) {
    outcomes.push({
      query: q.query,
      off: recall5(await top(off, q.query, `off-${i}`), q.expected),
      on: recall5(await top(learner, q.query, `on-${i}`), q.expected),
    });
  }
  return { fed, outcomes, off: mean(outcomes.map((o) => o.off)), on: mean(outcomes.map((o) => o.on)) };
}
