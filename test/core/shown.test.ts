// A definition the model already holds is not sent again: a search marks such a tool `shown` (name and description,
// no parameters) when the history the host passed to `prepare` holds its whole definition, or the tools block does.
import { createToolSearch, type Message, type SearchResult } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, names, recordingLogger } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });
const context = { sessionId: 's', tools: catalogue };

/** Searches, and appends the call and its result to the history, as a host does. */
async function searchInto(layer: ReturnType<typeof createToolSearch>, history: Message[], query: string) {
  const result = (await layer.search(context, { query })) as SearchResult;
  history.push(
    ...callAndResult(`c${history.length}`, 'search_tools', JSON.stringify(result), JSON.stringify({ query })),
  );
  return result;
}

describe('search results: a definition already held is marked shown', () => {
  it('sends a tool again as its name and description when an earlier result in the history holds it whole', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const history: Message[] = [];
    await layer.prepare({ ...context, messages: history });
    const first = await searchInto(layer, history, 'send email');
    expect(first.tools[0]).toMatchObject({ name: 'send_email', parameters: expect.any(Object) });
    await layer.prepare({ ...context, messages: history });
    const again = await searchInto(layer, history, 'email');
    const shown = again.tools.find((tool) => tool.name === 'send_email');
    expect(shown).toEqual({ name: 'send_email', description: catalogue[0]?.description, shown: true });
    // The others come whole, in the same order as without the mark, and the hint says where the parameters are.
    const fresh = (await layer.search({ ...context, sessionId: 'fresh' }, { query: 'email' })) as SearchResult;
    expect(names(again.tools)).toEqual(names(fresh.tools));
    expect(again.pagination).toEqual(fresh.pagination);
    expect(again.found).toBe(fresh.found);
    for (const tool of again.tools.filter((t) => t.name !== 'send_email')) expect(tool.parameters).toBeDefined();
    expect(again.hint).toBe(`${fresh.hint} ${layer.options.texts.hintShown}`);
    // A shown tool still counts as found: the history's result names it.
    const round = await layer.prepare({ ...context, messages: history });
    expect(round.discovered).toContain('send_email');
  });

  it('sends it whole again once the history that held it is trimmed, or when the host passes no history', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const history: Message[] = [];
    await layer.prepare({ ...context, messages: history });
    await searchInto(layer, history, 'send email');
    await layer.prepare({ ...context, messages: history.slice(2) });
    const trimmed = (await layer.search(context, { query: 'send email' })) as SearchResult;
    expect(trimmed.tools[0]?.shown).toBeUndefined();
    expect(trimmed.tools[0]?.parameters).toBeDefined();
    // No history: only the tools block counts, and what a search sends does not (the host may keep none of it).
    const bare = createToolSearch({ ...quiet(), exposure: 'bridge' });
    await bare.prepare(context);
    await bare.search(context, { query: 'send email' });
    const twice = (await bare.search(context, { query: 'send email' })) as SearchResult;
    expect(twice.tools[0]?.parameters).toBeDefined();
    // A layer that never saw the session's prepare marks nothing.
    const direct = createToolSearch(quiet());
    await direct.search(context, { query: 'send email' });
    expect(((await direct.search(context, { query: 'send email' })) as SearchResult).tools[0]?.shown).toBeUndefined();
  });

  it('marks the tools the tools block sends whole: direct tools, and discovered ones in tools mode', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['get_weather'] });
    const history: Message[] = [];
    await layer.prepare({ ...context, messages: history });
    await searchInto(layer, history, 'send email');
    // A history trimmed of the result: send_email is still in the tools block, as a discovered tool.
    await layer.prepare({ ...context, messages: [] });
    const result = (await layer.search(context, { query: 'send email weather' })) as SearchResult;
    const marked = result.tools.filter((tool) => tool.shown).map((tool) => tool.name);
    expect(marked).toEqual(expect.arrayContaining(['send_email', 'get_weather']));
    // clear() forgets what the session held.
    await layer.clear('s');
    const cleared = (await layer.search(context, { query: 'send email' })) as SearchResult;
    expect(cleared.tools[0]?.shown).toBeUndefined();
  });

  it('counts only the tools a result in the history carried whole, and what searches sent since that prepare', async () => {
    const layer = createToolSearch({ ...quiet(), exposure: 'bridge' });
    const tool = (name: string) => catalogue.find((t) => t.name === name);
    const result = JSON.stringify({
      found: 4,
      tools: [
        tool('send_email'),
        { name: 'get_weather', description: tool('get_weather')?.description, shown: true },
        { name: 'read_file', description: tool('read_file')?.description, parameters: 'path: string' },
        { name: 'no_such_tool', description: '', parameters: {} },
      ],
    });
    const history: Message[] = [
      ...callAndResult('r1', 'search_tools', result, JSON.stringify({ query: 'x' })),
      ...callAndResult('u1', 'get_forecast', '{"ok":true}'),
    ];
    const round = await layer.prepare({ ...context, messages: history });
    expect(round.discovered).toEqual(['send_email', 'get_weather', 'read_file', 'get_forecast']);
    const shownIn = async (query: string) => {
      const found = (await layer.search(context, { query })) as SearchResult;
      return found.tools.filter((t) => t.shown).map((t) => t.name);
    };
    expect(await shownIn('send email')).toContain('send_email');
    // Marked shown, summarised, or only called: the history holds none of them whole.
    await layer.prepare({ ...context, messages: history });
    expect(await shownIn('read file')).not.toContain('read_file');
    await layer.prepare({ ...context, messages: history });
    expect(await shownIn('weather')).toEqual([]); // get_weather, query_city_weather, get_forecast
    // Until the next prepare, what a search sent whole is held too; that prepare holds only what its history holds.
    expect(await shownIn('weather')).toEqual(['get_weather', 'query_city_weather', 'get_forecast']);
    await layer.prepare({ ...context, messages: history });
    expect(await shownIn('weather')).toEqual([]);
  });

  it('leaves compact results as they are: they carry no definitions to begin with', async () => {
    const layer = createToolSearch({ ...quiet(), searchResults: 'compact' });
    const history: Message[] = [];
    await layer.prepare({ ...context, messages: history });
    await searchInto(layer, history, 'send email');
    await layer.prepare({ ...context, messages: history });
    const result = (await layer.search(context, { query: 'send email' })) as unknown as { tools: { shown?: true }[] };
    expect(result.tools.some((tool) => tool.shown)).toBe(false);
  });
});
