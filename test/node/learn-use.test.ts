// Learning (SPEC 12, 14) on a real labelled catalogue, through the public API: sessions fed the way a host's loop
// feeds them (prepare at every round) teach the same table as sessions read once, and one session that loops over
// hundreds of requests moves a tool into barely more later top-5 lists than honest use does.
import { describe, expect, it } from 'vitest';
import { type BenchQuery, loadSet } from '../../bench/data.ts';
import { sampleEvenly } from '../../bench/sample.ts';
import type { Message, Tool } from '../../src/base/types.ts';
import { createMemoryStore, createToolSearch, type ToolSearch } from '../../src/index.ts';

const quiet = { warn() {} };
const set = loadSet('metatool');
const tools = set.tools as unknown as Tool[];
const queries = sampleEvenly(set.queries, 600);
const feed = queries.filter((_, i) => i % 2 === 0);
const test = queries.filter((_, i) => i % 2 === 1);

/** A session as a host's history holds it: the request, a search with its real result, each needed tool called. */
async function session(layer: ToolSearch, id: string, q: BenchQuery, tool?: string): Promise<Message[]> {
  const found = await layer.search({ sessionId: id, tools }, { query: q.query });
  const called = tool ? [tool] : q.relevant;
  return [
    { role: 'user', content: q.query },
    {
      role: 'assistant',
      toolCalls: [{ id: `${id}s`, name: 'search_tools', arguments: JSON.stringify({ query: q.query }) }],
    },
    { role: 'tool', toolCallId: `${id}s`, content: JSON.stringify(found) },
    ...called.flatMap((name, i): Message[] => [
      { role: 'assistant', toolCalls: [{ id: `${id}c${i}`, name, arguments: '{}' }] },
      { role: 'tool', toolCallId: `${id}c${i}`, content: '{"ok":true}' },
    ]),
  ];
}

const top5 = async (layer: ToolSearch, q: BenchQuery, i: number) =>
  (
    (await layer.search({ sessionId: `ask-${i}`, tools }, { query: q.query, limit: 5 })) as {
      tools: readonly { name: string }[];
    }
  ).tools.map((t) => t.name);

describe('learning on a real catalogue', () => {
  it('learns the same table, and ranks the same, whether each session is read once or at every round', async () => {
    const once = createToolSearch({ learn: true, logger: quiet, store: createMemoryStore({ maxSessions: 10_000 }) });
    const rounds = createToolSearch({ learn: true, logger: quiet, store: createMemoryStore({ maxSessions: 10_000 }) });
    for (const [i, q] of feed.entries()) {
      const messages = await session(once, `f${i}`, q);
      // The other layer searches as the session did: the memory judges itself again at a search once it changed
      // enough since the last (memory-entries.ts changedEnough), so layers that searched alike rank alike.
      await rounds.search({ sessionId: `f${i}`, tools }, { query: q.query });
      await once.prepare({ sessionId: `f${i}`, tools, messages });
      for (let end = 1; end <= messages.length; end++)
        await rounds.prepare({ sessionId: `f${i}`, tools, messages: messages.slice(0, end) });
      await Promise.all([once.flush(), rounds.flush()]);
    }
    const table = await once.inspectLearned();
    expect(table.length).toBeGreaterThan(500);
    expect(await rounds.inspectLearned()).toEqual(table);
    let differ = 0;
    for (const [i, q] of test.entries())
      if ((await top5(once, q, i)).join() !== (await top5(rounds, q, i)).join()) differ++;
    expect(differ).toBe(0);
  }, 120_000);

  it('lets a session that loops over 300 requests move a tool into at most 1% more later top-5 lists than honest use', async () => {
    const needed = new Set(queries.flatMap((q) => q.relevant));
    // A tool no request here needs: the loop calls it after every search.
    const stray = tools.find((t) => !needed.has(t.name))?.name as string;
    const store = createMemoryStore({ maxSessions: 10_000 });
    const honest = createToolSearch({ learn: true, logger: quiet, store });
    for (const [i, q] of feed.entries())
      await honest.prepare({ sessionId: `f${i}`, tools, messages: await session(honest, `f${i}`, q) });
    await honest.flush();
    const share = async (layer: ToolSearch) => {
      let hits = 0;
      for (const [i, q] of test.entries()) if ((await top5(layer, q, i)).includes(stray)) hits++;
      return hits / test.length;
    };
    const before = await share(createToolSearch({ learn: true, logger: quiet, store }));
    // One session, 300 searches (the later requests themselves, the worst case), each answered by the stray tool.
    const looping = createToolSearch({ learn: true, logger: quiet, store });
    let messages: Message[] = [];
    for (const [i, q] of test.entries()) {
      messages = [...messages, ...(await session(looping, `loop${i}`, q, stray))];
      await looping.prepare({ sessionId: 'loop', tools, messages });
    }
    await looping.flush();
    expect((await looping.inspectLearned()).some((c) => c.tool === stray)).toBe(true);
    const after = await share(createToolSearch({ learn: true, logger: quiet, store }));
    expect(after - before).toBeLessThanOrEqual(0.01);
  }, 120_000);
});
