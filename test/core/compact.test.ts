// searchResults: 'compact': a one-line parameter summary per found tool, for the modes where the full
// definition reaches the model in the next round's tools anyway; refused with the bridge.
import { createToolSearch, type SearchContext, type SearchResult, type Tool, ToolSearchError } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger, searchTurn } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });
const context = { sessionId: 's', tools: catalogue };

const rich: Tool = {
  name: 'create_issue',
  description: 'Create an issue in a repository',
  parameters: {
    type: 'object',
    properties: {
      repo: { type: 'string' },
      title: { type: 'string' },
      labels: { type: 'array', items: { type: 'string' } },
      priority: { enum: ['low', 'high'] },
      assignee: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      milestone: { $ref: '#/$defs/milestone' },
      draft: { type: ['boolean', 'null'] },
      extra: {},
    },
    required: ['repo', 'title'],
  },
};

const search = async (layer: ReturnType<typeof createToolSearch>, query: string, ctx: SearchContext = context) =>
  (await layer.search(ctx, { query, limit: 2 })) as SearchResult;

describe('compact search results', () => {
  it('carry the name, the description and a one-line parameter summary', async () => {
    const layer = createToolSearch({ ...quiet(), searchResults: 'compact' });
    const result = await search(layer, 'issue repository', { ...context, tools: [...catalogue, rich] });
    expect(result.tools[0]).toEqual({
      name: 'create_issue',
      description: 'Create an issue in a repository',
      parameters:
        'repo: string, title: string, labels?: string[], priority?: "low"|"high", assignee?: string|null, milestone?: milestone, draft?: boolean|null, extra?: any',
    });
    expect(result.hint).toMatch(/full definitions come with your next step/);
  });

  it('cost fewer characters than full results, and still discover the tools they return', async () => {
    const full = await search(createToolSearch(quiet()), 'weather');
    const layer = createToolSearch({ ...quiet(), searchResults: 'compact' });
    const compact = await search(layer, 'weather');
    expect(compact.tools.map((tool) => tool.name)).toEqual(full.tools.map((tool) => tool.name));
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length);
    const { tools } = await layer.prepare(context);
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools', ...compact.tools.map((tool) => tool.name)]);
    // Read back from the history, too (a layer without the search's own record).
    const messages = searchTurn('c1', [], 'weather').map((message, i) =>
      i === 1 ? { ...message, content: JSON.stringify(compact) } : message,
    );
    const fresh = createToolSearch({ ...quiet(), searchResults: 'compact' });
    expect((await fresh.prepare({ ...context, messages })).discovered).toEqual(compact.tools.map((tool) => tool.name));
  });

  it('are chosen per call, and give way to full results when a call asks for the bridge', async () => {
    const layer = createToolSearch(quiet());
    expect(typeof (await search(layer, 'weather', { ...context, searchResults: 'compact' })).tools[0]?.parameters).toBe(
      'string',
    );
    const compactLayer = createToolSearch({ ...quiet(), searchResults: 'compact' });
    const bridged = await search(compactLayer, 'weather', { ...context, exposure: 'bridge' });
    expect(bridged.tools[0]?.parameters).toEqual(catalogue[3]?.parameters);
    expect(bridged.hint).toMatch(/call_tool/);
  });

  it('are refused with the bridge, at construction and per call', async () => {
    expect(() => createToolSearch({ exposure: 'bridge', searchResults: 'compact' })).toThrow(ToolSearchError);
    const bridge = createToolSearch({ ...quiet(), exposure: 'bridge' });
    await expect(bridge.search({ ...context, searchResults: 'compact' }, { query: 'x' })).rejects.toThrow(
      'search: "compact" cannot be used with exposure "bridge"',
    );
  });

  it('speak Chinese with locale zh', async () => {
    const layer = createToolSearch({ ...quiet(), searchResults: 'compact', locale: 'zh' });
    expect((await search(layer, 'weather')).hint).toMatch(/完整定义随下一步发送/);
  });
});
