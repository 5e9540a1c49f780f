// The AI SDK adapter in the real `ai` v7 agent loop, driven by its own mock model.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  toolSearch,
} from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import { fromLayerTools, toLayerMessages, toLayerTools, withToolSearch } from 'tool-search-layer/ai-sdk';
import { createMcpCatalogue } from 'tool-search-layer/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const usage = { inputTokens: { total: 10 }, outputTokens: { total: 5 } } as never;

/** One model turn: the tool calls it makes, or a final text. */
type Turn = { calls: { name: string; input: unknown }[] } | { text: string };

function generated(turn: Turn, step: number) {
  if ('text' in turn) {
    return {
      content: [{ type: 'text' as const, text: turn.text }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    } as never;
  }
  return {
    content: turn.calls.map((call, i) => ({
      type: 'tool-call' as const,
      toolCallId: `call-${step}-${i}`,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  } as never;
}

/** A mock model that plays a script, one turn per step. */
function scripted(turns: Turn[]) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => generated(turns[step] ?? { text: 'done' }, step++),
  });
}

const toolNames = (call: { tools?: readonly { name: string }[] | undefined }) => (call.tools ?? []).map((t) => t.name);

/** The tool results the model was sent in a call's prompt, by tool name. */
function toolResults(call: { prompt: readonly unknown[] }) {
  return (call.prompt as { role: string; content: unknown }[])
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content as { toolName: string; output: { type: string; value: unknown } }[]);
}

function catalogue(ran: string[]) {
  const run = (name: string) => async (input: unknown) => {
    ran.push(name);
    return { ok: name, input };
  };
  const plain = (name: string, description: string) =>
    tool({
      description,
      inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
      execute: run(name),
    });
  return {
    get_weather: tool({
      description: 'Current weather conditions for a city',
      inputSchema: z.object({ city: z.string().describe('City name') }),
      execute: run('get_weather'),
    }),
    send_email: tool({
      description: 'Send an email message to a recipient',
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: run('send_email'),
    }),
    read_inbox: plain('read_inbox', 'List the newest messages in the inbox'),
    create_event: plain('create_event', 'Create a calendar event'),
    list_files: plain('list_files', 'List files in a folder of the drive'),
    translate_text: plain('translate_text', 'Translate text into another language'),
    get_stock_price: plain('get_stock_price', 'Latest stock price for a ticker symbol'),
    book_flight: plain('book_flight', 'Book a flight between two airports'),
  };
}

describe('withToolSearch in generateText', () => {
  it('searches, calls the found tool next step, and keeps it for the next generateText of the session', async () => {
    const ran: string[] = [];
    const layer = createToolSearch();
    const settings = withToolSearch(layer, { exposure: 'tools', sessionId: 's1', tools: catalogue(ran) });
    const model = scripted([
      { calls: [{ name: 'search_tools', input: { query: 'weather city', limit: 1 } }] },
      { calls: [{ name: 'get_weather', input: { city: 'Paris' } }] },
      { text: 'It is sunny.' },
    ]);
    const result = await generateText({ model, ...settings, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' });
    expect(result.text).toBe('It is sunny.');
    expect(model.doGenerateCalls.map(toolNames)).toEqual([
      ['search_tools'],
      ['search_tools', 'get_weather'],
      ['search_tools', 'get_weather'],
    ]);
    expect(ran).toEqual(['get_weather']);
    // The search result carries the zod schema as JSON Schema.
    const [found] = toolResults(model.doGenerateCalls[1] as never);
    const value = found?.output.value as { tools: { name: string; parameters: { properties: object } }[] };
    expect(value.tools[0]?.name).toBe('get_weather');
    expect(value.tools[0]?.parameters.properties).toHaveProperty('city');
    // The names list in search_tools' description, and the real parameters, reach the model.
    const sent = model.doGenerateCalls[0]?.tools?.[0] as { description: string; inputSchema: { required: string[] } };
    expect(sent.description).toContain('send_email');
    expect(sent.inputSchema.required).toEqual(['query']);

    const again = scripted([{ calls: [{ name: 'get_weather', input: { city: 'Oslo' } }] }, { text: 'Cold.' }]);
    await generateText({
      model: again,
      ...withToolSearch(layer, { exposure: 'tools', sessionId: 's1', tools: catalogue(ran) }),
      stopWhen: stepCountIs(3),
      prompt: 'And Oslo?',
    });
    expect(toolNames(again.doGenerateCalls[0] as never)).toEqual(['search_tools', 'get_weather']);
    expect(ran).toEqual(['get_weather', 'get_weather']);

    const other = scripted([{ text: 'Hi.' }]);
    await generateText({
      model: other,
      ...withToolSearch(layer, { exposure: 'tools', sessionId: 's2', tools: catalogue(ran) }),
      prompt: 'Hi',
    });
    expect(toolNames(other.doGenerateCalls[0] as never)).toEqual(['search_tools']);
  });

  it('sends discoveries in the order found, whatever the key order of the tool set', async () => {
    const layer = createToolSearch();
    const model = scripted([
      { calls: [{ name: 'search_tools', input: { query: 'flight' } }] },
      { calls: [{ name: 'search_tools', input: { query: 'calendar event' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...withToolSearch(layer, { exposure: 'tools', sessionId: 'order', tools: catalogue([]) }),
      stopWhen: stepCountIs(4),
      prompt: 'Trip',
    });
    expect(model.doGenerateCalls.map(toolNames)).toEqual([
      ['search_tools'],
      ['search_tools', 'book_flight'],
      ['search_tools', 'book_flight', 'create_event'],
    ]);
  });

  it('answers bad search arguments with the layer’s error and hint, not the SDK’s validation error', async () => {
    const model = scripted([{ calls: [{ name: 'search_tools', input: { limit: 'many' } }] }, { text: 'ok' }]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { exposure: 'tools', sessionId: 'bad', tools: catalogue([]) }),
      stopWhen: stepCountIs(3),
      prompt: 'x',
    });
    const [answer] = toolResults(model.doGenerateCalls[1] as never);
    expect(answer?.output.type).toBe('json');
    expect(answer?.output.value).toMatchObject({ error: expect.any(String), hint: expect.stringContaining('query') });
  });

  it('passes a small tool set through unchanged (bypass), without search_tools', async () => {
    const ran: string[] = [];
    const { get_weather, send_email } = catalogue(ran);
    const model = scripted([{ calls: [{ name: 'send_email', input: { to: 'a', body: 'b' } }] }, { text: 'sent' }]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), {
        exposure: 'tools',
        sessionId: 'few',
        tools: { get_weather, send_email },
      }),
      stopWhen: stepCountIs(3),
      prompt: 'mail',
    });
    expect(model.doGenerateCalls.map(toolNames)).toEqual([
      ['get_weather', 'send_email'],
      ['get_weather', 'send_email'],
    ]);
    expect(ran).toEqual(['send_email']);
  });

  it('never sends an entry the layer skips, even when the layer is off (issue 15, item 1)', async () => {
    const ran: string[] = [];
    const { get_weather, send_email } = catalogue(ran);
    const unnamed = tool({ description: 'A tool without a name', inputSchema: z.object({}), execute: async () => 0 });
    for (const layer of [createToolSearch(), createToolSearch({ enabled: false })]) {
      const model = scripted([{ calls: [{ name: 'send_email', input: { to: 'a', body: 'b' } }] }, { text: 'sent' }]);
      await generateText({
        model,
        ...withToolSearch(layer, {
          exposure: 'tools',
          sessionId: 'skipped',
          tools: { '': unnamed, get_weather, send_email },
        }),
        stopWhen: stepCountIs(3),
        prompt: 'mail',
      });
      expect(model.doGenerateCalls.map(toolNames)).toEqual([
        ['get_weather', 'send_email'],
        ['get_weather', 'send_email'],
      ]);
    }
    expect(ran).toEqual(['send_email', 'send_email']);
  });

  it('hides tools outside the enabled groups from search and names list', async () => {
    const tools = catalogue([]);
    const model = scripted([
      { calls: [{ name: 'search_tools', input: { query: 'email inbox weather' } }] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), {
        exposure: 'tools',
        sessionId: 'groups',
        tools,
        groups: { send_email: ['mail'], read_inbox: ['mail'], get_weather: ['weather'] },
        enabledGroups: ['weather'],
      }),
      stopWhen: stepCountIs(3),
      prompt: 'x',
    });
    const sent = model.doGenerateCalls[0]?.tools?.[0] as { description: string };
    expect(sent.description).not.toContain('send_email');
    const [answer] = toolResults(model.doGenerateCalls[1] as never);
    expect(JSON.stringify(answer?.output.value)).not.toMatch(/send_email|read_inbox/);
    expect(toolNames(model.doGenerateCalls[1] as never)).toEqual(['search_tools', 'get_weather']);
  });
});

describe('withToolSearch in a ToolLoopAgent, beside the SDK’s own toolSearch', () => {
  it('leaves deferLoading tools and toolSearch() to the SDK, always active', async () => {
    const ran: string[] = [];
    const deferred = tool({
      deferLoading: true,
      description: 'Convert an amount between currencies',
      inputSchema: z.object({ amount: z.number() }),
      execute: async () => {
        ran.push('convert_currency');
        return 1;
      },
    });
    const model = scripted([
      { calls: [{ name: 'sdk_search', input: { query: 'currencies' } }] },
      { calls: [{ name: 'search_tools', input: { query: 'stock price' } }] },
      { calls: [{ name: 'convert_currency', input: { amount: 3 } }] },
      { text: 'ok' },
    ]);
    const agent = new ToolLoopAgent({
      model,
      ...withToolSearch(createToolSearch(), {
        exposure: 'tools',
        sessionId: 'agent',
        tools: { ...catalogue(ran), sdk_search: toolSearch(), convert_currency: deferred },
      }),
      stopWhen: stepCountIs(6),
    });
    await agent.generate({ prompt: 'Convert 3 dollars' });
    expect(model.doGenerateCalls.map(toolNames)).toEqual([
      ['search_tools', 'sdk_search'],
      ['search_tools', 'sdk_search', 'convert_currency'],
      ['search_tools', 'get_stock_price', 'sdk_search', 'convert_currency'],
      ['search_tools', 'get_stock_price', 'sdk_search', 'convert_currency'],
    ]);
    expect(ran).toEqual(['convert_currency']);
  });
});

describe('calls of tools the model was never shown', () => {
  for (const mode of ['hint', 'discover'] as const) {
    it(`never runs them, and answers with the corrective result ('${mode}')`, async () => {
      const ran: string[] = [];
      const layer = createToolSearch();
      const model = scripted([
        { calls: [{ name: 'send_email', input: { to: 'x@example.com', body: 'hi' } }] },
        { text: 'ok' },
      ]);
      const result = await generateText({
        model,
        ...withToolSearch(layer, {
          exposure: 'tools',
          sessionId: `blind-${mode}`,
          tools: catalogue(ran),
          onUndiscoveredCall: mode,
        }),
        stopWhen: stepCountIs(3),
        prompt: 'Mail Bob',
      });
      expect(ran).toEqual([]);
      const [answer] = toolResults(model.doGenerateCalls[1] as never);
      const value = answer?.output.value as {
        notCalled: string;
        error: string;
        hint: string;
        tools?: { name: string }[];
      };
      expect(Object.keys(value)[0]).toBe('notCalled');
      expect(value.notCalled).toBe('send_email');
      expect(value.error).toContain('send_email');
      if (mode === 'hint') {
        expect(value.hint).toContain('search_tools');
        expect(value.tools).toBeUndefined();
        expect(toolNames(model.doGenerateCalls[1] as never)).toEqual(['search_tools']);
      } else {
        expect(value.tools?.[0]).toMatchObject({ name: 'send_email', parameters: { required: ['to', 'body'] } });
        // Discovered now: active from the next step, so the model can call it again with valid arguments.
        expect(toolNames(model.doGenerateCalls[1] as never)).toEqual(['search_tools', 'send_email']);
      }
      // The corrective answer never counts as a use of the tool.
      const { discovered } = await layer.prepare({
        sessionId: `blind-${mode}`,
        tools: [{ name: 'send_email' }, ...Array.from({ length: 6 }, (_, i) => ({ name: `t${i}` }))],
        messages: toLayerMessages(result.response.messages),
      });
      expect(discovered).toEqual(mode === 'hint' ? [] : ['send_email']);
    });
  }

  it('answers an unknown name with the closest visible names', async () => {
    const model = scripted([{ calls: [{ name: 'send_mail', input: {} }] }, { text: 'ok' }]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { exposure: 'tools', sessionId: 'unknown', tools: catalogue([]) }),
      stopWhen: stepCountIs(3),
      prompt: 'x',
    });
    const [answer] = toolResults(model.doGenerateCalls[1] as never);
    expect(answer?.output.value).toMatchObject({
      notCalled: 'send_mail',
      closest: expect.arrayContaining(['send_email']),
    });
  });

  it('guards execute itself, for a runtime that would run a tool that is not active', async () => {
    const ran: string[] = [];
    const settings = withToolSearch(createToolSearch(), {
      exposure: 'tools',
      sessionId: 'guard',
      tools: catalogue(ran),
    });
    await settings.prepareStep({ messages: [], steps: [], stepNumber: 0 } as never);
    const execute = settings.tools.send_email.execute as (input: unknown, options: unknown) => Promise<unknown>;
    const answer = await execute({ to: 'a', body: 'b' }, { toolCallId: 'c1', messages: [] });
    expect(answer).toMatchObject({ notCalled: 'send_email' });
    expect(ran).toEqual([]);
  });
});

describe('withToolSearch in streamText', () => {
  it('runs the same loop over a stream', async () => {
    const ran: string[] = [];
    const turns: Turn[] = [
      { calls: [{ name: 'search_tools', input: { query: 'translate' } }] },
      { calls: [{ name: 'translate_text', input: { q: 'hello' } }] },
      { text: 'bonjour' },
    ];
    let step = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        const turn = turns[step] ?? { text: 'done' };
        const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
        if ('text' in turn) {
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: turn.text },
            { type: 'text-end', id: 't' },
          );
        } else {
          for (const [i, call] of turn.calls.entries()) {
            parts.push({
              type: 'tool-call',
              toolCallId: `s${step}-${i}`,
              toolName: call.name,
              input: JSON.stringify(call.input),
            });
          }
        }
        parts.push({
          type: 'finish',
          finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined },
          usage,
        });
        step++;
        return { stream: convertArrayToReadableStream(parts) } as never;
      },
    });
    const result = streamText({
      model,
      ...withToolSearch(createToolSearch(), { exposure: 'tools', sessionId: 'stream', tools: catalogue(ran) }),
      stopWhen: stepCountIs(5),
      prompt: 'Say hello in French',
    });
    expect(await result.text).toBe('bonjour');
    expect(model.doStreamCalls.map(toolNames)).toEqual([
      ['search_tools'],
      ['search_tools', 'translate_text'],
      ['search_tools', 'translate_text'],
    ]);
    expect(ran).toEqual(['translate_text']);
  });
});

describe('conversions between AI SDK tools and the layer’s shape', () => {
  it('toLayerTools gives zod and jsonSchema inputs as JSON Schema, with groups', async () => {
    const tools = await toLayerTools(catalogue([]), { send_email: ['mail'] });
    expect(tools[0]).toEqual({
      name: 'get_weather',
      description: 'Current weather conditions for a city',
      parameters: expect.objectContaining({
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' } },
        required: ['city'],
      }),
    });
    expect(tools[1]).toMatchObject({ name: 'send_email', groups: ['mail'] });
    expect(tools[2]?.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  it('fromLayerTools runs an MCP catalogue in the AI SDK loop, each call routed to its server', async () => {
    const server = new McpServer({ name: 'office', version: '1.0.0' });
    const ran: string[] = [];
    for (const name of ['create_note', 'list_notes', 'create_event', 'list_events', 'send_fax', 'print_page']) {
      server.registerTool(
        name,
        { description: `${name.replace('_', ' ')} in the office`, inputSchema: { text: z.string() } },
        async ({ text }) => {
          ran.push(`${name}:${text}`);
          return { content: [{ type: 'text', text: `${name} done` }] };
        },
      );
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const mcp = await createMcpCatalogue({ office: client });
    const bridged = fromLayerTools(mcp.tools, (name, input) => mcp.call(name, input as Record<string, unknown>));
    expect(bridged.groups.send_fax).toEqual(['office']);
    const model = scripted([
      { calls: [{ name: 'search_tools', input: { query: 'fax' } }] },
      { calls: [{ name: 'send_fax', input: { text: 'hello' } }] },
      { text: 'faxed' },
    ]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { exposure: 'tools', sessionId: 'mcp-bridge', ...bridged }),
      stopWhen: stepCountIs(5),
      prompt: 'Fax hello',
    });
    expect(model.doGenerateCalls.map(toolNames)[1]).toEqual(['search_tools', 'send_fax']);
    expect(ran).toEqual(['send_fax:hello']);
    mcp.close();
    await client.close();
  });
});

describe('toLayerMessages', () => {
  it('reads tool calls and every output shape, and skips malformed parts', () => {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'calling' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'one', input: {} },
          { type: 'tool-call', toolCallId: 7, toolName: 'bad' },
          null,
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'one', output: { type: 'json', value: { tools: [] } } },
          { type: 'tool-result', toolCallId: 'b', toolName: 'two', output: { type: 'text', value: 'plain' } },
          { type: 'tool-result', toolCallId: 'c', toolName: 'x', output: { type: 'error-text', value: 'boom' } },
          {
            type: 'tool-result',
            toolCallId: 'd',
            toolName: 'x',
            output: { type: 'content', value: [{ type: 'text', text: 'p1' }] },
          },
          { type: 'tool-result', toolCallId: 'e', toolName: 'x', output: { type: 'execution-denied' } },
          { type: 'tool-result', toolCallId: 'f', toolName: 'x', output: 'not a shape' },
          { type: 'tool-approval-response', approvalId: 'z', approved: true },
        ],
      },
      'junk',
    ] as unknown as ModelMessage[];
    expect(toLayerMessages(messages)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'calling', toolCalls: [{ id: 'a', name: 'one' }] },
      { role: 'tool', toolCallId: 'a', content: '{"tools":[]}' },
      { role: 'tool', toolCallId: 'b', content: 'plain' },
      { role: 'tool', toolCallId: 'c', content: 'boom' },
      { role: 'tool', toolCallId: 'd', content: 'p1' },
    ]);
    expect(toLayerMessages(undefined)).toEqual([]);
  });
});

describe('toLayerMessages for the append-only exposures', () => {
  it('gives a call_tool call its arguments, and reads tool-reference parts as the tools a search found', () => {
    const reference = (toolName: string) => ({
      type: 'custom',
      providerOptions: { anthropic: { type: 'tool-reference', toolName } },
    });
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'call_tool', input: { name: 'send_email', arguments: {} } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'search_tools', input: { query: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'search_tools',
            output: { type: 'content', value: [reference('one'), reference('two')] },
          },
        ],
      },
    ] as unknown as ModelMessage[];
    expect(toLayerMessages(messages)).toEqual([
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'a', name: 'call_tool', arguments: '{"name":"send_email","arguments":{}}' },
          // The query too: learning credits it to the tools called after the search.
          { id: 'b', name: 'search_tools', arguments: '{"query":"x"}' },
        ],
      },
      { role: 'tool', toolCallId: 'b', content: '{"tools":[{"name":"one"},{"name":"two"}]}' },
    ]);
  });
});

describe('withToolSearch options', () => {
  it('throws ToolSearchError naming the path', () => {
    const layer = createToolSearch();
    const tools = catalogue([]);
    expect(() => withToolSearch(layer, { sessionId: 1 as never, tools })).toThrow(/options\.sessionId/);
    expect(() => withToolSearch(layer, { sessionId: 's', tools: [] as never })).toThrow(/options\.tools/);
    expect(() => withToolSearch(layer, { sessionId: 's', tools, onUndiscoveredCall: 'run' as never })).toThrow(
      /onUndiscoveredCall/,
    );
    expect(() => withToolSearch(layer, { sessionId: 's', tools, enabledGroups: 'mail' as never })).toThrow(
      /enabledGroups/,
    );
    expect(() =>
      withToolSearch(layer, { sessionId: 's', tools: { ...tools, search_tools: tools.book_flight } }),
    ).toThrow(/search_tools/);
    expect(() => withToolSearch({} as never, { sessionId: 's', tools })).toThrow(ToolSearchError);
    expect(() => withToolSearch(layer, { sessionId: 's', tools, exposure: 'defer' as never })).toThrow(
      /withToolSearch: options\.exposure must be "tools", "bridge", "native"/,
    );
    for (const reserved of ['call_tool', 'tool_search']) {
      expect(() =>
        withToolSearch(layer, { sessionId: 's', tools: { ...tools, [reserved]: tools.book_flight } }),
      ).toThrow(new RegExp(`options\\.tools\\.${reserved}`));
    }
  });
});
