// Learning through the Gemini adapter's own loops: the real `@google/genai` client against the loopback provider,
// `ai.models.generateContent` in 'bridge' and 'tools' (calls with ids, as Gemini 3 sends them, and without), and
// `ai.chats`. Each session searches, calls the tool it found, and must teach the layer (see learn-fixtures.ts).
import type { Content, FunctionDeclaration, Part, ToolUnion } from '@google/genai';
import type { ToolSearch } from 'tool-search-layer';
import { answerGeminiFunctionCall, type GeminiExposure, prepareGeminiRequest } from 'tool-search-layer/gemini';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import { callPart, executor, geminiClient, geminiReply } from './gemini-fixtures.ts';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';
import { type MockProvider, startMockProvider } from './mock-provider.ts';

const MODEL = 'gemini-3-flash';
const declarations: FunctionDeclaration[] = catalogue.map((tool) => ({
  name: tool.name,
  description: tool.description ?? '',
  parametersJsonSchema: tool.parameters ?? { type: 'object', properties: {} },
}));
const tools: ToolUnion[] = [{ functionDeclarations: declarations }];
const groupOf = (name: string) => catalogue.find((tool) => tool.name === name)?.groups;

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** The model's turns: search, call the found tool (by name, or through call_tool in the bridge), answer. */
async function start(exposure: GeminiExposure, ids: boolean) {
  const id = (value: string) => (ids ? value : undefined);
  const call =
    exposure === 'bridge'
      ? callPart('call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS }, id('c1'), 'c2lnLTE=')
      : callPart(LEARN_TOOL, LEARN_ARGS, id('c1'), 'c2lnLTE=');
  const turns: Part[][] = [[callPart('search_tools', { query: LEARN_QUERY }, id('s1'), 'c2lnLTA=')], [call]];
  provider = await startMockProvider((_request, i) => geminiReply(turns[i] ?? [{ text: 'Take one.' }]));
  return geminiClient(provider.origin);
}

describe('learning through ai.models.generateContent', () => {
  for (const exposure of ['bridge', 'tools'] as const) {
    for (const ids of [true, false]) {
      it(`${exposure}, calls ${ids ? 'with' : 'without'} ids: the search's query is credited to the tool that ran`, async () => {
        const layer = learningLayer();
        await expectUntaught(layer);
        const ai = await start(exposure, ids);
        const { calls, execute } = executor();
        const options = { sessionId: `gemini-${exposure}-${ids}`, groupOf, exposure };
        const contents: Content[] = [{ role: 'user', parts: [{ text: 'Do I need an umbrella in Oslo?' }] }];
        for (let round = 0; round < 6; round++) {
          const params = { model: MODEL, contents, config: { tools } };
          const response = await ai.models.generateContent(await prepareGeminiRequest(layer, params, options));
          const content = response.candidates?.[0]?.content;
          if (!content) throw new Error('no content');
          contents.push(content);
          const answers: Part[] = [];
          for (const part of content.parts ?? []) {
            if (part.functionCall)
              answers.push(await answerGeminiFunctionCall(layer, part, { ...options, tools, execute }));
          }
          if (answers.length === 0) break;
          contents.push({ role: 'user', parts: answers });
        }
        expect(calls.map((call) => call.name)).toEqual([LEARN_TOOL]);
        await expectTaught(layer);
      });
    }
  }
});

/** A chat session as the guide runs it; `learn` hands the layer the chat's history once the turn is done. */
async function chatSession(layer: ToolSearch, learn: boolean) {
  const ai = await start('bridge', false);
  const { calls, execute } = executor();
  const options = { sessionId: `chat-${learn}` };
  const config = { systemInstruction: 'You check the weather.', tools };
  const chat = ai.chats.create(await prepareGeminiRequest(layer, { model: MODEL, config }, options));
  let response = await chat.sendMessage({ message: 'Do I need an umbrella in Oslo?' });
  while (response.functionCalls?.length) {
    const answers: Part[] = [];
    for (const call of response.functionCalls) {
      answers.push(await answerGeminiFunctionCall(layer, call, { ...options, tools, execute }));
    }
    response = await chat.sendMessage({ message: answers });
  }
  if (learn) await prepareGeminiRequest(layer, { model: MODEL, contents: chat.getHistory(), config }, options);
  return calls.map((call) => call.name);
}

describe('learning through ai.chats', () => {
  it('learns once the host hands the layer the chat history, the one line the guide adds', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    expect(await chatSession(layer, true)).toEqual([LEARN_TOOL]);
    await expectTaught(layer);
  });

  it('a chat prepared only at its creation teaches nothing', async () => {
    const layer = learningLayer();
    expect(await chatSession(layer, false)).toEqual([LEARN_TOOL]);
    await expectUntaught(layer);
  });
});
