// A history trimmed at its front (a host that drops the oldest turns to fit the context) sends the same turns under
// smaller numbers, and only its last searches. The memory of past requests keeps each request by its session and turn:
// it must end with the requests the untrimmed history gives, not lose the trimmed turns' requests to later ones under
// their numbers. And a looping session must stay within one search's worth of credit per tool, however it is cut.
import { createMemoryStore, createToolSearch, type Message } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { memoryHeadKey, memoryPageKeys, pageEntries, readMemoryHead } from '../../src/learn/memory-pages.ts';
import { catalogue } from '../core/fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

/** A turn: a user message, a search and a call of `tool` with its result. */
const turnOf = (i: number, query: string, tool: string): Message[] => [
  { role: 'user', content: `${query}, please` },
  { role: 'assistant', toolCalls: [{ id: `s${i}`, name: 'search_tools', arguments: JSON.stringify({ query }) }] },
  { role: 'tool', toolCallId: `s${i}`, content: '{"found":0,"tools":[]}' },
  { role: 'assistant', toolCalls: [{ id: `c${i}`, name: tool, arguments: '{}' }] },
  { role: 'tool', toolCallId: `c${i}`, content: '{"ok":true}' },
];

const turns = [
  turnOf(1, 'umbrella tomorrow lisbon', 'get_forecast'),
  turnOf(2, 'mail my sister the news', 'send_email'),
  turnOf(3, 'jot the standup notes', 'write_file'),
  turnOf(4, 'book the dentist next week', 'create_event'),
  turnOf(5, 'what is twelve times nine', 'calculator'),
  turnOf(6, 'anything new in my inbox', 'read_inbox'),
];

/** The requests the store's memory holds (each session's turn once: the newest version), as turn → sorted tools. */
async function remembered(store: ReturnType<typeof createMemoryStore>): Promise<Map<number, string>> {
  const space = store.shared as NonNullable<typeof store.shared>;
  const pageKey = memoryPageKeys('default');
  const byTurn = new Map<number, string>();
  for (let lane = 0; lane < 4; lane++) {
    const head = readMemoryHead(await space.get(memoryHeadKey('default', lane)));
    for (let n = head.first; n <= head.last; n++)
      for (const entry of pageEntries(await space.get(pageKey(lane, n)))) byTurn.set(entry.turn, entry.tools.join(','));
  }
  return byTurn;
}

/** A session sent round by round: each round the turns so far, the oldest `trimmed(round)` dropped. */
async function sessionOf(trimmed: (round: number) => number) {
  const store = createMemoryStore();
  const layer = createToolSearch({ learn: true, store, logger: quiet });
  for (let round = 1; round <= turns.length; round++) {
    const messages = turns.slice(trimmed(round), round).flat();
    await layer.prepare({ sessionId: 'trimmed', tools, messages });
  }
  await layer.flush();
  return { requests: await remembered(store), learned: await layer.inspectLearned() };
}

describe('a history trimmed at its front', () => {
  it('leaves the memory the requests of the history sent whole', async () => {
    const whole = await sessionOf(() => 0);
    expect([...whole.requests.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // The host keeps the last three turns once there are more.
    const kept = await sessionOf((round) => Math.max(0, round - 3));
    expect(kept.requests).toEqual(whole.requests);
    // Two turns dropped once, then the rest sent whole again.
    const once = await sessionOf((round) => (round === 5 ? 2 : 0));
    expect(once.requests).toEqual(whole.requests);
  });

  it('holds a looping session to one search’s worth of credit per tool, its history cut to its last turns', async () => {
    // 60 searches of three new words each, every one ending in the same tool.
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`);
    const loop = Array.from({ length: 60 }, (_, i) =>
      turnOf(100 + i, `${words[3 * i]} ${words[3 * i + 1]} ${words[3 * i + 2]}`, 'calculator'),
    );
    const credit = async (window: number) => {
      const layer = createToolSearch({ learn: true, store: createMemoryStore(), logger: quiet });
      for (let round = 1; round <= loop.length; round++)
        await layer.prepare({
          sessionId: 'loop',
          tools,
          messages: loop.slice(Math.max(0, round - window), round).flat(),
        });
      await layer.flush();
      const rows = (await layer.inspectLearned()).filter((row) => row.tool === 'calculator');
      return { pairs: rows.length, total: rows.reduce((sum, row) => sum + row.credit, 0) };
    };
    const whole = await credit(loop.length);
    // Each term 1/60 of the tool, over the pairs the session's record has room for.
    expect(whole.total).toBeGreaterThan(1.5);
    expect(whole.total).toBeLessThanOrEqual(3);
    // Cut to its last three turns, the session shared the tool among three searches each round, and the record kept
    // what the cut ones gave: 60 credits before; now at most what one search gives (three terms), over every term.
    for (const window of [3, 10]) {
      const cut = await credit(window);
      expect(cut.pairs).toBe(whole.pairs);
      expect(cut.total).toBeLessThanOrEqual(3 + 0.001 * cut.pairs);
    }
  });
});
