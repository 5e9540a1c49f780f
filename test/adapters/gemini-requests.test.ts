// Issue 31: the rest of tool-search-layer/gemini through the real `@google/genai` client on loopback: `ai.chats`,
// the tool kinds that pass through (googleSearch, codeExecution, urlContext, an `mcpToTool()` object), history
// read by id or by order, and what Gemini's schema subset makes the adapter convert or skip.
import { type Content, type FunctionDeclaration, mcpToTool, type Part, type ToolUnion, Type } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createToolSearch } from 'tool-search-layer';
import { answerGeminiFunctionCall, type GeminiOptions, prepareGeminiRequest } from 'tool-search-layer/gemini';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingLogger } from '../core/fixtures.ts';
import {
  callPart,
  declarations,
  executor,
  geminiClient,
  geminiReply,
  groupOf,
  quiet,
  typecheckBodies,
} from './gemini-fixtures.ts';
import { type MockProvider, startMockProvider } from './mock-provider.ts';

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const tools: ToolUnion[] = [{ functionDeclarations: [...declarations] }];
const names = (tool: ToolUnion | undefined) =>
  ((tool as { functionDeclarations?: FunctionDeclaration[] })?.functionDeclarations ?? []).map((d) => d.name);

describe('ai.chats', () => {
  it('a chat made from the prepared parameters keeps the bridge, and its history only appends', async () => {
    const found = (body: Record<string, unknown>) =>
      JSON.stringify((body.contents as Content[]).at(-1)?.parts?.[0]?.functionResponse?.response);
    provider = await startMockProvider(({ body }, index) => {
      if (index === 0) return geminiReply([callPart('search_tools', { query: 'create a new issue' }, 's0', 'c2ln')]);
      if (index === 1) {
        if (!found(body).includes('"create_issue"')) throw new Error('create_issue was not found');
        return geminiReply([
          callPart('call_tool', { name: 'create_issue', arguments: { owner: 'o', repo: 'r', title: 't' } }, 'c1'),
        ]);
      }
      if (index === 2) return geminiReply([callPart('create_issue', { owner: 'o', repo: 'r', title: 'again' }, 'c2')]);
      return geminiReply([{ text: 'Two issues filed.' }]);
    });
    const ai = geminiClient(provider.origin);
    const layer = createToolSearch(quiet());
    const { calls, execute } = executor();
    const options: GeminiOptions = { sessionId: 'chat', groupOf };
    const config = { systemInstruction: 'You manage GitHub.', tools };
    const chat = ai.chats.create(await prepareGeminiRequest(layer, { model: 'gemini-3-flash', config }, options));
    let response = await chat.sendMessage({ message: 'File two issues.' });
    for (let round = 0; round < 3; round++) {
      const parts: Part[] = [];
      for (const part of response.candidates?.[0]?.content?.parts ?? []) {
        if (part.functionCall) parts.push(await answerGeminiFunctionCall(layer, part, { ...options, tools, execute }));
      }
      response = await chat.sendMessage({ message: parts });
    }
    expect(response.text).toBe('Two issues filed.');
    const requests = provider.requests;
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.raw).toContain(`"tools":${JSON.stringify(requests[0]?.body.tools)}`);
      expect(request.body.systemInstruction).toEqual(requests[0]?.body.systemInstruction);
    }
    expect(names((requests[0]?.body.tools as ToolUnion[] | undefined)?.[0])).toEqual(['search_tools', 'call_tool']);
    for (let i = 1; i < requests.length; i++) {
      const earlier = JSON.stringify(requests[i - 1]?.body.contents);
      expect(requests[i]?.raw).toContain(`"contents":${earlier.slice(0, -1)},`);
    }
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['create_issue', { owner: 'o', repo: 'r', title: 't' }],
      ['create_issue', { owner: 'o', repo: 'r', title: 'again' }],
    ]);
    expect(
      typecheckBodies(
        'chats',
        requests.map((request) => request.body),
      ),
    ).toBe('');
  });
});

describe('tools that are not declarations pass through', () => {
  it('googleSearch, codeExecution, urlContext and an mcpToTool() object are sent as given, and nothing is mutated', async () => {
    const server = new McpServer({ name: 'tiny', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echo a message', inputSchema: { message: z.string() } },
      async ({ message }) => ({
        content: [{ type: 'text', text: message }],
      }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'gemini-test', version: '1.0.0' });
    await client.connect(clientSide);
    provider = await startMockProvider(() => geminiReply([{ text: 'ok' }]));
    const ai = geminiClient(provider.origin);
    const layer = createToolSearch(quiet());
    const mcp = mcpToTool(client);
    const mixed: ToolUnion[] = Object.freeze([
      Object.freeze({ functionDeclarations: [...declarations], urlContext: {} }),
      { googleSearch: {} },
      { codeExecution: {} },
      mcp,
    ]) as ToolUnion[];
    const config = Object.freeze({ tools: mixed });
    const plain = () => JSON.stringify(mixed.slice(0, 3));
    const before = plain();
    const request = await prepareGeminiRequest(
      layer,
      { model: 'gemini-3-flash', contents: 'Hi', config },
      { sessionId: 'kinds' },
    );
    expect(request.config?.tools?.slice(1)).toEqual([
      { urlContext: {} },
      { googleSearch: {} },
      { codeExecution: {} },
      mcp,
    ]);
    expect(request.config?.tools?.[4]).toBe(mcp);
    expect(request.config?.automaticFunctionCalling).toEqual({ disable: true });
    await ai.models.generateContent(request);
    const sent = provider.body(0).tools as Record<string, unknown>[];
    expect(sent.slice(1, 4)).toEqual([{ urlContext: {} }, { googleSearch: {} }, { codeExecution: {} }]);
    expect(names(sent[0] as ToolUnion)).toEqual(['search_tools', 'call_tool']);
    expect(JSON.stringify(sent.slice(4))).toContain('"echo"');
    expect(plain()).toBe(before);
    expect(config.tools).toBe(mixed);
    expect(typecheckBodies('kinds', [provider.body(0)])).toBe('');
    // A caller's own automaticFunctionCalling is kept.
    const own = await prepareGeminiRequest(
      layer,
      { contents: 'Hi', config: { tools: mixed, automaticFunctionCalling: { maximumRemoteCalls: 2 } } },
      { sessionId: 'kinds' },
    );
    expect(own.config?.automaticFunctionCalling).toEqual({ maximumRemoteCalls: 2 });
    await client.close();
  });
});

describe('history', () => {
  const search = (layer: ReturnType<typeof createToolSearch>, query: string) =>
    answerGeminiFunctionCall(layer, callPart('search_tools', { query }), {
      sessionId: 'scratch',
      tools,
      execute: () => undefined,
    });

  it('reads discoveries from calls and responses paired by order where ids are absent', async () => {
    const layer = createToolSearch(quiet());
    const issue = await search(layer, 'create a new issue');
    const fork = await search(layer, 'fork a repository');
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'Go.' }] },
      {
        role: 'model',
        parts: [callPart('search_tools', { query: 'create a new issue' }), callPart('search_tools', { query: 'fork' })],
      },
      { role: 'user', parts: [issue, fork] },
    ];
    for (const part of contents[2]?.parts ?? []) delete part.functionResponse?.id;
    const request = await prepareGeminiRequest(
      layer,
      { contents, config: { tools } },
      { sessionId: 'read', exposure: 'tools' },
    );
    const shown = names(request.config?.tools?.[0]);
    expect(shown).toContain('create_issue');
    expect(shown).toContain('fork_repository');
    // A call with no response yet discovers nothing.
    const open = await prepareGeminiRequest(
      layer,
      { contents: contents.slice(0, 2), config: { tools } },
      { sessionId: 'open', exposure: 'tools' },
    );
    expect(names(open.config?.tools?.[0])).toEqual(['search_tools']);
  });

  it('pairs by id when ids are there, whatever the order of the responses', async () => {
    const layer = createToolSearch(quiet());
    const issue = await search(layer, 'create a new issue');
    const contents: Content[] = [
      {
        role: 'model',
        parts: [callPart('search_tools', { query: 'star' }, 'a'), callPart('search_tools', { query: 'x' }, 'b')],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'b', name: 'search_tools', response: { tools: [] } } },
          { functionResponse: { id: 'a', name: 'search_tools', response: issue.functionResponse?.response ?? {} } },
        ],
      },
    ];
    const request = await prepareGeminiRequest(
      layer,
      { contents, config: { tools } },
      { sessionId: 'ids', exposure: 'tools' },
    );
    expect(names(request.config?.tools?.[0])).toContain('create_issue');
  });
});

describe('the declarations cap', () => {
  it('warns once when a request carries more than 100 declarations, and never in the bridge', async () => {
    const logger = recordingLogger();
    const off = createToolSearch({ logger, enabled: false });
    for (let round = 0; round < 2; round++) {
      const request = await prepareGeminiRequest(off, { contents: 'Hi', config: { tools } }, { sessionId: 'cap' });
      expect(names(request.config?.tools?.[0])).toHaveLength(declarations.length);
    }
    expect(logger.lines.filter((line) => line.includes('function declarations in one request'))).toEqual([
      `[tool-search-layer] gemini: ${declarations.length} function declarations in one request; Gemini is reported to take about 100 (the bridge sends two)`,
    ]);
    const bridged = recordingLogger();
    await prepareGeminiRequest(
      createToolSearch({ logger: bridged }),
      { contents: 'Hi', config: { tools } },
      { sessionId: 'cap' },
    );
    expect(bridged.lines.filter((line) => line.includes('function declarations'))).toEqual([]);
  });
});

describe("Gemini's schema subset and name rule", () => {
  it('converts what Gemini cannot take, skips what cannot be converted, with a warning, and still checks the original', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    const own: FunctionDeclaration[] = [
      {
        name: 'set_colour',
        description: 'Set the colour of a label',
        parametersJsonSchema: {
          type: 'object',
          properties: {
            colour: { type: 'string', pattern: '^#[0-9a-f]{6}$', not: { const: '#000000' }, examples: ['#ffffff'] },
            kind: { oneOf: [{ const: 'bug' }, { const: 'feature' }] },
            flags: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
            level: { enum: ['low', 2, true, null] },
          },
          required: ['colour'],
          definitions: { x: { type: 'string' } },
        },
      },
      {
        name: 'open_api_style',
        description: 'Open a label in the OpenAPI style',
        parameters: {
          type: Type.OBJECT,
          properties: { label: { type: Type.STRING, nullable: true } },
          required: ['label'],
        },
      },
      {
        name: 'take_a_list',
        description: 'Takes a list',
        parametersJsonSchema: { type: 'array', items: { type: 'string' } },
      },
      { name: '9lives', description: 'A name that starts with a digit', parametersJsonSchema: { type: 'object' } },
    ];
    Object.freeze(own[1]?.parameters);
    const catalogue: ToolUnion[] = [{ functionDeclarations: [...declarations, ...own] }];
    const options: GeminiOptions = { sessionId: 'schemas', exposure: 'tools' };
    const { execute, calls } = executor();
    for (const query of ['set colour label', 'open label OpenAPI', 'takes a list', 'name starts with a digit']) {
      await answerGeminiFunctionCall(layer, callPart('search_tools', { query }), {
        ...options,
        tools: catalogue,
        execute,
      });
    }
    const request = await prepareGeminiRequest(layer, { contents: 'Hi', config: { tools: catalogue } }, options);
    const first = request.config?.tools?.[0] as { functionDeclarations?: FunctionDeclaration[] } | undefined;
    const sent = first?.functionDeclarations ?? [];
    const byName = new Map(sent.map((d) => [d.name, d]));
    expect(byName.get('set_colour')?.parametersJsonSchema).toEqual({
      type: 'object',
      properties: {
        colour: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        kind: { anyOf: [{ enum: ['bug'] }, { enum: ['feature'] }] },
        flags: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
        level: { enum: ['low', 2] },
      },
      required: ['colour'],
      $defs: { x: { type: 'string' } },
    });
    expect(byName.get('open_api_style')).toEqual({
      name: 'open_api_style',
      description: 'Open a label in the OpenAPI style',
      parametersJsonSchema: {
        type: 'object',
        properties: { label: { type: ['string', 'null'] } },
        required: ['label'],
      },
    });
    expect(byName.has('take_a_list')).toBe(false);
    expect(byName.has('9lives')).toBe(false);
    for (const declaration of sent) expect(declaration).not.toHaveProperty('parameters');
    expect(logger.lines.join('\n')).toMatch(/"set_colour" is sent converted \(.*"not" left out; "examples" left out/);
    expect(logger.lines.join('\n')).toMatch(/"take_a_list" is not sent as a declaration: .*not an object/);
    expect(logger.lines.join('\n')).toMatch(/"9lives" is not sent as a declaration: its name/);
    // The model's arguments are checked against the original schema, pattern included.
    const wrong = await answerGeminiFunctionCall(layer, callPart('set_colour', { colour: 'red' }, 'w'), {
      ...options,
      tools: catalogue,
      execute,
    });
    expect(wrong.functionResponse).toMatchObject({
      id: 'w',
      name: 'set_colour',
      response: { notCalled: 'set_colour' },
    });
    const right = await answerGeminiFunctionCall(layer, callPart('set_colour', { colour: '#00ff00' }, 'r'), {
      ...options,
      tools: catalogue,
      execute: () => 'done',
    });
    expect(right.functionResponse).toEqual({ id: 'r', name: 'set_colour', response: { output: 'done' } });
    const nullable = await answerGeminiFunctionCall(layer, callPart('open_api_style', { label: null }), {
      ...options,
      tools: catalogue,
      execute: () => ['a', 'b'],
    });
    expect(nullable.functionResponse).toEqual({ name: 'open_api_style', response: { output: ['a', 'b'] } });
    expect(calls).toEqual([]);
  });
});
