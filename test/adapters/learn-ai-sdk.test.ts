// Learning through the AI SDK adapter's own loop: `generateText` with the SDK's mock model (bridge, tools, and
// rankWith inside the SDK's own toolSearch) and with the real provider packages against the loopback server
// (native with @ai-sdk/anthropic and @ai-sdk/openai). Each session searches, calls the tool it found, and must teach
// the layer (see learn-fixtures.ts).
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type Tool,
  type ToolSet,
  toolSearch,
} from 'ai';
import type { ToolSearch } from 'tool-search-layer';
import { fromLayerTools, rankWith, withToolSearch } from 'tool-search-layer/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import { scriptedModel } from './ai-sdk-fixtures.ts';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';
import {
  anthropicReply,
  functionCall,
  type MockProvider,
  responsesReply,
  startMockProvider,
  textMessage,
  toolSearchCall,
} from './mock-provider.ts';

let server: MockProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The core catalogue as an AI SDK tool set; `ran` records each run. */
function catalogueTools(ran: string[]) {
  return fromLayerTools(catalogue, async (name) => {
    ran.push(name);
    return { ok: name };
  });
}

/** One generateText session through withToolSearch; the catalogue tool it ran. */
async function play(layer: ToolSearch, model: LanguageModel, exposure: 'bridge' | 'tools' | 'native') {
  const ran: string[] = [];
  await generateText({
    model,
    ...withToolSearch(layer, { sessionId: `learn-${exposure}`, exposure, ...catalogueTools(ran) }),
    prompt: 'Do I need an umbrella in Oslo?',
    stopWhen: stepCountIs(5),
  });
  return ran;
}

describe('learning through withToolSearch', () => {
  it('bridge: the search_tools query is credited to the tool call_tool ran', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    const model = scriptedModel([
      { calls: [['search_tools', { query: LEARN_QUERY }]] },
      { calls: [['call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS }]] },
      { text: 'Take one.' },
    ]);
    expect(await play(layer, model, 'bridge')).toEqual([LEARN_TOOL]);
    await expectTaught(layer);
  });

  it('tools: the search_tools query is credited to the found tool called directly', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    const model = scriptedModel([
      { calls: [['search_tools', { query: LEARN_QUERY }]] },
      { calls: [[LEARN_TOOL, LEARN_ARGS]] },
      { text: 'Take one.' },
    ]);
    expect(await play(layer, model, 'tools')).toEqual([LEARN_TOOL]);
    await expectTaught(layer);
  });

  it('native with @ai-sdk/anthropic: the search whose tool_reference loaded the tool is credited', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    server = await startMockProvider(
      (_request, i) =>
        [
          anthropicReply({ uses: [['search_tools', { query: LEARN_QUERY }]] }),
          anthropicReply({ uses: [[LEARN_TOOL, LEARN_ARGS]] }),
        ][i] ?? anthropicReply({ text: 'Take one.' }),
    );
    const model = createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    expect(await play(layer, model, 'native')).toEqual([LEARN_TOOL]);
    // The search was answered with tool_reference blocks, as Anthropic's tool search loads tools.
    expect(JSON.stringify(server.body(1).messages)).toContain('"tool_reference"');
    await expectTaught(layer);
  });

  it('native with @ai-sdk/openai: the query of OpenAI tool_search (one level down in the SDK) is credited', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    server = await startMockProvider(
      (_request, i) =>
        [
          responsesReply([toolSearchCall({ query: LEARN_QUERY })]),
          responsesReply([functionCall(LEARN_TOOL, LEARN_ARGS)]),
        ][i] ?? responsesReply([textMessage('Take one.')]),
    );
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'test' }).responses('gpt-5.4');
    expect(await play(layer, model, 'native')).toEqual([LEARN_TOOL]);
    expect((server.body(1).input as { type: string }[]).at(-1)?.type).toBe('tool_search_output');
    await expectTaught(layer);
  });
});

/** The core catalogue as deferred AI SDK tools, for the SDK's own toolSearch. */
function deferredCatalogue(ran: string[]): ToolSet {
  const { tools } = catalogueTools(ran);
  return Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, { ...t, deferLoading: true } as Tool]));
}

/** The model of the rankWith tests: the SDK's own toolSearch, then the tool it found, then an answer. */
const searchThenCall = () =>
  scriptedModel([
    { calls: [['toolSearch', { query: LEARN_QUERY }]] },
    { calls: [[LEARN_TOOL, LEARN_ARGS]] },
    { text: 'Take one.' },
  ]);

describe('learning through rankWith inside the SDK own toolSearch', () => {
  it('learns with one more line: prepareStep: search.prepareStep', async () => {
    const layer = learningLayer();
    await expectUntaught(layer);
    const ran: string[] = [];
    const tools = deferredCatalogue(ran);
    const search = rankWith(layer, { tools, sessionId: 'rank-with-learn' });
    const model = searchThenCall();
    await generateText({
      model,
      tools: { toolSearch: toolSearch({ search }), ...tools },
      prepareStep: search.prepareStep,
      prompt: 'Do I need an umbrella in Oslo?',
      stopWhen: stepCountIs(5),
    });
    expect(ran).toEqual([LEARN_TOOL]);
    await expectTaught(layer);
  });

  it('a turn that stops right after the call teaches at the next turn, even through a new rankWith', async () => {
    const layer = learningLayer();
    const ran: string[] = [];
    const tools = deferredCatalogue(ran);
    const model = searchThenCall();
    // A new rankWith per request, as a server would build it.
    const turn = (messages: ModelMessage[], steps: number) => {
      const search = rankWith(layer, { tools, sessionId: 'two-turns' });
      return generateText({
        model,
        tools: { toolSearch: toolSearch({ search }), ...tools },
        prepareStep: search.prepareStep,
        messages,
        stopWhen: stepCountIs(steps),
      });
    };
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }];
    const first = await turn(prompt, 2);
    expect(ran).toEqual([LEARN_TOOL]);
    await expectUntaught(layer);
    await turn([...prompt, ...first.responseMessages, { role: 'user', content: 'Thanks' }], 1);
    await expectTaught(layer);
  });

  it('without that line the searches rank but teach nothing', async () => {
    const layer = learningLayer();
    const ran: string[] = [];
    const tools = deferredCatalogue(ran);
    const model = searchThenCall();
    await generateText({
      model,
      tools: { toolSearch: toolSearch({ search: rankWith(layer, { tools }) }), ...tools },
      prompt: 'Do I need an umbrella in Oslo?',
      stopWhen: stepCountIs(5),
    });
    expect(ran).toEqual([LEARN_TOOL]);
    await expectUntaught(layer);
  });
});
