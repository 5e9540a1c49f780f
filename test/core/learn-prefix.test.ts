// Learning from random histories: a layer that reads each session's history once and one that reads it at every
// prefix (a host re-sends the growing history each round) settle on the same credit and rank alike, whatever the
// history holds (several requests, searches that recur, repeated words, tools reached through call_tool).
import {
  createMemoryStore,
  createToolSearch,
  type Message,
  type SearchResult,
  type ToolSearch,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };
const words = [
  'rain',
  'coast',
  'mail',
  'send',
  'file',
  'read',
  'stock',
  'price',
  'meeting',
  'tomorrow',
  'lisbon',
  'euro',
];

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random session: requests, each of one or more searches, each followed by calls of one or more tools. */
function session(rnd: () => number, id: string): Message[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const messages: Message[] = [];
  let call = 0;
  const requests = 1 + Math.floor(rnd() * 3);
  for (let r = 0; r < requests; r++) {
    messages.push({ role: 'user', content: `request ${r}` });
    const searches = 1 + Math.floor(rnd() * 3);
    for (let s = 0; s < searches; s++) {
      const query = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick(words)).join(' ');
      const search = `${id}-${call++}`;
      messages.push(
        { role: 'assistant', toolCalls: [{ id: search, name: 'search_tools', arguments: JSON.stringify({ query }) }] },
        { role: 'tool', toolCallId: search, content: '{"tools":[]}' },
      );
      const called = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(tools).name);
      for (const name of called) {
        const id2 = `${id}-${call++}`;
        const direct = rnd() < 0.7;
        messages.push(
          {
            role: 'assistant',
            toolCalls: [
              direct
                ? { id: id2, name, arguments: '{}' }
                : { id: id2, name: 'call_tool', arguments: JSON.stringify({ name, arguments: {} }) },
            ],
          },
          { role: 'tool', toolCallId: id2, content: '{"ok":true}' },
        );
      }
    }
  }
  return messages;
}

const ranked = async (layer: ToolSearch, query: string) =>
  names(((await layer.search({ sessionId: `ask-${query}`, tools }, { query })) as SearchResult).tools);

describe('learn from random histories', () => {
  it('settles on the same credit and ranking whether each history is read once or at every prefix', async () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed);
      const once = createToolSearch({ learn: true, logger: quiet, store: createMemoryStore() });
      const rounds = createToolSearch({ learn: true, logger: quiet, store: createMemoryStore() });
      for (let i = 0; i < 12; i++) {
        const history = session(rnd, `s${i}`);
        await once.prepare({ sessionId: `s${i}`, tools, messages: history });
        for (let end = 1; end <= history.length; end++)
          await rounds.prepare({ sessionId: `s${i}`, tools, messages: history.slice(0, end) });
        await Promise.all([once.flush(), rounds.flush()]);
      }
      const table = await once.inspectLearned();
      expect(table.length).toBeGreaterThan(0);
      expect(await rounds.inspectLearned()).toEqual(table);
      for (const query of ['rain coast', 'send mail tomorrow', 'stock price euro', 'read file', 'meeting lisbon'])
        expect(await ranked(rounds, query)).toEqual(await ranked(once, query));
    }
  });
});
