// Defects of issue 14 about input the model or a third-party catalogue controls: each test failed before the fix.
import { createToolSearch, type Message, type Tool } from 'tool-search-layer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogue, recordingLogger, searchTurn } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });
const many = (n: number, prefix = 'tool'): Tool[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}_${i}`,
    description: `Does thing number ${i} for ${prefix}`,
    parameters: { type: 'object', properties: { value: { type: 'string' } } },
  }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('limits (issue 14)', () => {
  it('defect 5: a hallucinated name of 1 MB is answered at once, and echoed cut', async () => {
    const layer = createToolSearch(quiet());
    const tools = many(4000);
    const name = `tool_${'x'.repeat(1_000_000)}`;
    const check = await layer.checkCall({ sessionId: 's', tools }, name);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.result.notCalled.length).toBeLessThanOrEqual(256);
    expect(JSON.stringify(check.result).length).toBeLessThan(4000);
  });

  it('defect 8: a history of 1,800 search results is parsed once, not again every round', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 0 });
    const nonce = Math.random().toString(36).slice(2);
    const messages: Message[] = [];
    for (let i = 0; i < 1800; i++)
      messages.push(...searchTurn(`d8-${nonce}-${i}`, [catalogue[i % 16]?.name as string], nonce));
    // Each result distinct, as real ones are (their hints and descriptions differ).
    messages.forEach((message, i) => {
      if (message.role === 'tool') Object.assign(message, { content: `${message.content?.slice(0, -2)}${i}"}` });
    });
    await layer.prepare({ sessionId: `d8-${nonce}`, tools: catalogue, messages });
    const parse = vi.spyOn(JSON, 'parse');
    await layer.prepare({ sessionId: `d8-${nonce}`, tools: catalogue, messages });
    const again = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.startsWith('{"found"'));
    expect(again).toHaveLength(0);
  });

  it('defect 7: search results of megabytes are not held by the parse cache', async () => {
    const layer = createToolSearch(quiet());
    const big = 'w'.repeat(5_000_000);
    const content = (i: number) =>
      JSON.stringify({ found: 1, tools: [{ name: 'calculator', description: `${i}${big}` }], related: [], hint: '' });
    const messages: Message[] = [];
    for (let i = 0; i < 2; i++) {
      messages.push({ role: 'assistant', toolCalls: [{ id: `d7-${i}`, name: 'search_tools', arguments: '{}' }] });
      messages.push({ role: 'tool', toolCallId: `d7-${i}`, content: content(i) });
    }
    await layer.prepare({ sessionId: 'd7', tools: catalogue, messages });
    const parse = vi.spyOn(JSON, 'parse');
    const round = await layer.prepare({ sessionId: 'd7', tools: catalogue, messages });
    expect(round.discovered).toEqual(['calculator']);
    const parsedAgain = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > 1_000_000);
    expect(parsedAgain).toHaveLength(2);
  });

  it('defect 10: a description is indexed only up to its limit', async () => {
    const layer = createToolSearch(quiet());
    const huge: Tool = {
      name: 'huge_manual',
      description: `Reads the manual. ${'filler words here '.repeat(300_000)} zebrafinch`,
    };
    const tools = [...catalogue, huge];
    const result = await layer.search({ sessionId: 's', tools }, { query: 'zebrafinch' });
    expect('found' in result && result.found).toBe(0);
    const byName = await layer.search({ sessionId: 's', tools }, { query: 'manual' });
    expect('tools' in byName && byName.tools[0]?.name).toBe('huge_manual');
  });

  it('defect 10: a cyclic parameters object still makes a result JSON can carry', async () => {
    const layer = createToolSearch(quiet());
    const parameters: Record<string, unknown> = { type: 'object', properties: {} };
    (parameters.properties as Record<string, unknown>).self = parameters;
    const tools = [...catalogue, { name: 'cyclic_tool', description: 'A cyclic schema', parameters }];
    const result = await layer.search({ sessionId: 's', tools }, { query: 'cyclic' });
    expect('tools' in result && result.tools[0]?.name).toBe('cyclic_tool');
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('maxDiscoveredKeep 0 is no limit (SPEC 12): a history that finds 1,500 tools keeps them all', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 0 });
    const tools = many(1500);
    const messages = searchTurn(
      'k0',
      tools.map((t) => t.name),
    );
    const round = await layer.prepare({ sessionId: 'k0', tools, messages });
    expect(round.discovered).toHaveLength(1500);
    expect(round.discovered[1499]).toBe('tool_1499');
  });

  it('defect 11: a names list cut to its budget names no disabled group', async () => {
    const layer = createToolSearch({ ...quiet(), toolNamesBudget: 300 });
    const tools = many(60, 'shared_visible_tool').map((t) => ({ ...t, groups: ['public', 'secret_ops'] }));
    const round = await layer.prepare({ sessionId: 's', tools, enabledGroups: ['public'] });
    const description = round.tools[0]?.description ?? '';
    expect(description).toMatch(/public/);
    expect(description).not.toMatch(/secret_ops/);
  });
});
