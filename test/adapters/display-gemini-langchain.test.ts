// displayToolCall on Gemini's and LangChain's own values (issue 42): the Parts the real `@google/genai` client
// returns and the functionResponse parts the layer answers with, and the ToolCalls and ToolMessages of a real
// `createAgent` run. A refused call must show as refused, with the tool the model meant and its arguments.
import type { FunctionCall, Part } from '@google/genai';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel, tool, toolErrorMiddleware } from 'langchain';
import { createToolSearch } from 'tool-search-layer';
import { answerGeminiFunctionCall, displayToolCall as fromGemini } from 'tool-search-layer/gemini';
import { displayToolCall as fromLangChain, toolSearchMiddleware } from 'tool-search-layer/langchain';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { callPart, declarations, geminiClient, geminiReply, quiet } from './gemini-fixtures.ts';
import { type MockProvider, startMockProvider } from './mock-provider.ts';

const tools = [{ functionDeclarations: [...declarations] }];
const star = { owner: 'octo', repo: 'hi' };

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('displayToolCall: Gemini', () => {
  it('reads the Parts the client returns with the functionResponse parts the layer answered them with', async () => {
    // One model turn with every case: a call before any search (refused), a search, the found tool through
    // call_tool and by its own name, and a string result the adapter wraps as { output }.
    const turn = [
      callPart('call_tool', { name: 'star_repository', arguments: star }, 'c1', 'sig'),
      callPart('search_tools', { query: 'star a repository', limit: 1 }, 'c2'),
      callPart('call_tool', { name: 'star_repository', arguments: star }, 'c3'),
      callPart('star_repository', { ...star, repo: 'there' }, 'c4'),
    ];
    const mock = await startMockProvider(() => geminiReply(turn));
    provider = mock;
    const response = await geminiClient(mock.origin).models.generateContent({
      model: 'gemini-3-flash',
      contents: 'Star octo/hi',
    });
    const parts: Part[] = response.candidates?.[0]?.content?.parts ?? [];
    expect(parts).toHaveLength(4);
    expect(parts[0]?.thoughtSignature).toBe('sig');

    const layer = createToolSearch(quiet());
    const results = ['starred', { starred: true }];
    const execute = () => results.shift();
    const answers: Part[] = [];
    for (const part of parts) {
      answers.push(await answerGeminiFunctionCall(layer, part, { sessionId: 'g', tools, execute }));
    }

    // The whole Parts, as `contents` holds them.
    const shown = parts.map((part, i) => fromGemini(part, answers[i]));
    expect(shown.map(({ name, bridged, status }) => [name, bridged, status])).toEqual([
      ['star_repository', true, 'refused'],
      ['search_tools', false, 'done'],
      ['star_repository', true, 'done'],
      ['star_repository', false, 'done'],
    ]);
    expect(shown[0]?.arguments).toEqual(star);
    expect(shown[0]?.error).toMatch(/star_repository/);
    expect(shown[1]?.arguments).toEqual({ query: 'star a repository', limit: 1 });
    expect(shown[1]?.result).toMatchObject({ tools: [{ name: 'star_repository' }] });
    // A string result went back as { output: 'starred' }: Gemini's own key for a function's output.
    expect(shown[2]).toEqual({
      name: 'star_repository',
      arguments: star,
      bridged: true,
      status: 'done',
      result: 'starred',
    });
    expect(shown[3]).toMatchObject({ arguments: { ...star, repo: 'there' }, result: { starred: true } });

    // The parts' own functionCall and functionResponse, and the response's functionCalls: the same reading.
    for (const [i, part] of parts.entries()) {
      const answer = answers[i]?.functionResponse;
      expect(fromGemini(part.functionCall, answer)).toEqual(shown[i]);
      expect(fromGemini(response.functionCalls?.[i], answer)).toEqual(shown[i]);
      expect(fromGemini(part)).toMatchObject({ name: shown[i]?.name, status: 'pending' });
    }
  });

  it('reads a response with an "error" key as an error, as Gemini does', async () => {
    const layer = createToolSearch(quiet());
    const call: FunctionCall = { id: 'e1', name: 'star_repository', args: star };
    await layer.search({ sessionId: 'e', tools: [{ name: 'star_repository' }] }, { query: 'star' });
    const execute = () => ({ error: 'rate limited' });
    const answer = await answerGeminiFunctionCall(layer, call, { sessionId: 'e', tools, execute });
    expect(fromGemini(call, answer)).toMatchObject({
      name: 'star_repository',
      status: 'error',
      error: 'rate limited',
      result: 'rate limited',
    });
  });
});

describe('displayToolCall: LangChain', () => {
  it('reads the ToolCalls and ToolMessages of a real createAgent run', async () => {
    const ran: string[] = [];
    const weather = tool(
      async ({ city }) => {
        ran.push(city);
        return JSON.stringify({ sky: 'sunny', city });
      },
      { name: 'get_weather', description: 'Current weather for a city', schema: z.object({ city: z.string() }) },
    );
    const broken = tool(
      async () => {
        throw new Error('forecast service down');
      },
      { name: 'get_forecast', description: 'Weather forecast for a city', schema: z.object({ city: z.string() }) },
    );
    const others = Array.from({ length: 8 }, (_, i) =>
      tool(async () => 'ok', { name: `tool_${i}`, description: `Tool number ${i}`, schema: z.object({}) }),
    );
    const paris = { name: 'get_weather', arguments: { city: 'Paris' } };
    const model = fakeModel()
      .respondWithTools([{ name: 'call_tool', args: paris, id: 'l1' }])
      .respondWithTools([{ name: 'search_tools', args: { query: 'weather forecast', limit: 3 }, id: 'l2' }])
      .respondWithTools([{ name: 'call_tool', args: paris, id: 'l3' }])
      .respondWithTools([{ name: 'get_forecast', args: { city: 'Oslo' }, id: 'l4' }])
      .respond(new AIMessage('Sunny in Paris.'));
    const agent = createAgent({
      model,
      tools: [weather, broken, ...others],
      // LangChain's own error handling turns the throw into a ToolMessage with status 'error'.
      middleware: [
        toolSearchMiddleware(createToolSearch(quiet())),
        toolErrorMiddleware({ onError: (error) => `failed: ${(error as Error).message}` }),
      ],
      checkpointer: new MemorySaver(),
    });
    const { messages } = await agent.invoke(
      { messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      { configurable: { thread_id: 'lc' } },
    );
    expect(ran).toEqual(['Paris']);

    const calls = messages.flatMap((m: BaseMessage) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
    const answers = messages.filter((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage[];
    const shown = calls.map((call) =>
      fromLangChain(
        call,
        answers.find((m) => m.tool_call_id === call.id),
      ),
    );
    expect(shown.map(({ name, bridged, status }) => [name, bridged, status])).toEqual([
      ['get_weather', true, 'refused'],
      ['search_tools', false, 'done'],
      ['get_weather', true, 'done'],
      ['get_forecast', false, 'error'],
    ]);
    expect(shown[0]).toMatchObject({ arguments: { city: 'Paris' } });
    expect(shown[0]?.error).toMatch(/get_weather/);
    expect(shown[2]).toEqual({
      name: 'get_weather',
      arguments: { city: 'Paris' },
      bridged: true,
      status: 'done',
      result: { sky: 'sunny', city: 'Paris' },
    });
    expect(shown[3]?.error).toMatch(/forecast service down/);
    expect(fromLangChain(calls[2])).toMatchObject({ name: 'get_weather', status: 'pending' });

    // A ToolMessage whose content is a list of blocks (as a provider-native tool may return) reads the same.
    const refusal = answers[0] as ToolMessage;
    const blocks = new ToolMessage({
      content: [{ type: 'text', text: String(refusal.content) }],
      tool_call_id: refusal.tool_call_id,
    });
    expect(fromLangChain(calls[0], blocks)).toEqual(shown[0]);
  });
});
