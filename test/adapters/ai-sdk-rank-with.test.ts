// rankWith inside the AI SDK's own toolSearch, through the real generateText loop with the SDK's mock model: the
// SDK defers and loads the tools, the layer ranks them (stems, CJK, parameters) and keeps the session's groups.
import { generateText, stepCountIs, type ToolSet, tool, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createToolSearch } from 'tool-search-layer';
import { rankWith } from 'tool-search-layer/ai-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingLogger } from '../core/fixtures.ts';

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

/** Deferred tools, each recording its runs. */
function deferredTools(ran: string[]): ToolSet {
  const make = (name: string, description: string, inputSchema: z.ZodType) =>
    tool({
      description,
      inputSchema,
      deferLoading: true,
      execute: async () => {
        ran.push(name);
        return { ok: name };
      },
    });
  return {
    get_weather: make('get_weather', 'Current weather conditions for a city', z.object({ city: z.string() })),
    get_forecast: make('get_forecast', 'Weather forecast for the next days', z.object({ city: z.string() })),
    send_email: make('send_email', 'Send an email message', z.object({ to: z.string(), body: z.string() })),
    create_invoice: make(
      'create_invoice',
      'Bill a customer',
      z.object({ customer: z.string(), amount_cents: z.number().describe('Amount due, in cents') }),
    ),
    translate_text: make('translate_text', '翻译文本到另一种语言', z.object({ text: z.string() })),
    delete_repo: make('delete_repo', 'Delete a repository and all its forecasts', z.object({ repo: z.string() })),
  };
}

/** Valid input for each tool the model may call after its search. */
const INPUTS: Record<string, unknown> = {
  get_weather: { city: 'Oslo' },
  get_forecast: { city: 'Oslo' },
  translate_text: { text: 'hi' },
  create_invoice: { customer: 'acme', amount_cents: 100 },
};

/** A model that searches with `query`, then calls the first tool it was sent beyond toolSearch, then stops. */
function searchingModel(query: string) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const at = step++;
      const offered = (options.tools ?? []).map((t) => t.name).filter((name) => name !== 'toolSearch');
      const call = (toolName: string, input: unknown) => ({
        content: [{ type: 'tool-call', toolCallId: `c${at}`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      });
      if (at === 0) return call('toolSearch', { query }) as never;
      if (at === 1 && offered[0]) return call(offered[0], INPUTS[offered[0]] ?? {}) as never;
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      } as never;
    },
  });
}

/** What the model was offered at the step after its search, and what the search answered. */
async function run(query: string, search: Parameters<typeof toolSearch>[0]) {
  const ran: string[] = [];
  const tools = deferredTools(ran);
  const model = searchingModel(query);
  const result = await generateText({
    model,
    tools: { toolSearch: toolSearch(search), ...tools },
    stopWhen: stepCountIs(4),
    prompt: query,
  });
  const offered = (model.doGenerateCalls[1]?.tools ?? []).map((t) => t.name).filter((n) => n !== 'toolSearch');
  const output = result.steps[0]?.toolResults[0]?.output as { tools: { name: string }[] } | undefined;
  const found = (output?.tools ?? []).map((t) => t.name);
  return { found, offered, ran, first: model.doGenerateCalls[0]?.tools?.map((t) => t.name) };
}

describe('rankWith in the AI SDK toolSearch', () => {
  it('ranks the deferred tools with the layer, where the SDK word match finds nothing (stems, CJK, parameters)', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    for (const [query, expected] of [
      ['forecasts for Oslo', 'get_forecast'],
      ['翻译', 'translate_text'],
      ['amount in cents', 'create_invoice'],
    ] as const) {
      const ours = await run(query, { search: rankWith(layer, { tools: deferredTools([]) }), maxResults: 2 });
      const sdk = await run(query, { maxResults: 2 });
      expect(ours.first, query).toEqual(['toolSearch']);
      expect(ours.found[0], query).toBe(expected);
      expect(ours.offered, query).toContain(expected);
      expect(ours.found.length).toBeLessThanOrEqual(2);
      // The found tool was loaded on the next step and ran.
      expect(ours.ran, query).toEqual([expected]);
      expect(sdk.found[0], `the SDK's own match for "${query}"`).not.toBe(expected);
    }
    expect(logger.lines).toEqual([]);
  });

  it('ranks the names and descriptions the SDK passes when given no tool set', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const ours = await run('weather forecasts', { search: rankWith(layer) });
    // get_forecast holds both words and get_weather scores far below it: the confident page is get_forecast alone.
    expect(ours.found).toEqual(['get_forecast']);
    // With no cap there is no cut: the whole order of the names the SDK passed.
    const all = createToolSearch({ logger: recordingLogger(), maxSearchResults: 0 });
    const every = await run('weather forecasts', { search: rankWith(all) });
    expect(every.found.slice(0, 2)).toEqual(['get_forecast', 'get_weather']);
  });

  it('keeps the session rules: a tool outside the enabled groups is never returned', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const groups = { get_weather: ['weather'], get_forecast: ['weather'], delete_repo: ['admin'] };
    const open = await run('forecasts', { search: rankWith(layer, { groups }) });
    expect(open.found).toContain('delete_repo');
    const limited = rankWith(layer, { groups, enabledGroups: ['weather'], sessionId: 'user-1' });
    const closed = await run('forecasts', { search: limited });
    expect(closed.found).toContain('get_forecast');
    expect(closed.found).not.toContain('delete_repo');
    expect(closed.offered).not.toContain('delete_repo');
  });

  it('rejects bad options at creation, naming the option and the reason', () => {
    const layer = createToolSearch();
    expect(() => rankWith(layer, { enabledGroups: 'weather' as never })).toThrow(
      /rankWith: invalid option "enabledGroups": must be an array of strings/,
    );
    expect(() => rankWith(layer, { sessionid: 'x' } as never)).toThrow(
      /rankWith: invalid option "sessionid": is not an option/,
    );
  });
});
