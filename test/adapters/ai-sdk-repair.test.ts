// Issue 29 item 5: withToolSearch's repairToolCall is what turns a call of a found tool by its own name into a call
// through call_tool. A host that picks `{ tools, prepareStep }` out of the result loses it, and the SDK refuses the
// call with AI_NoSuchToolError; the adapter says so once, through the layer's logger.
import { generateText, stepCountIs } from 'ai';
import { createToolSearch } from 'tool-search-layer';
import { withToolSearch } from 'tool-search-layer/ai-sdk';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../core/fixtures.ts';
import { officeTools, type Run, scriptedModel, type Turn } from './ai-sdk-fixtures.ts';

/** A search that finds get_weather, then a call of it by its own name, as models do. */
const DIRECT: Turn[] = [
  { calls: [['search_tools', { query: 'weather city', limit: 1 }]] },
  { calls: [['get_weather', { city: 'Paris' }]] },
  { text: 'done' },
];

const repairWarnings = (lines: readonly string[]) => lines.filter((line) => line.includes('repairToolCall'));

describe('a direct call of a found tool without the repair', () => {
  it('is refused by the SDK, and the adapter warns once per layer, however many sessions follow', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    const ran: Run[] = [];
    for (const sessionId of ['a', 'b']) {
      const { tools, prepareStep } = withToolSearch(layer, { sessionId, tools: officeTools(ran) });
      const result = await generateText({
        model: scriptedModel(DIRECT),
        tools,
        prepareStep,
        stopWhen: stepCountIs(4),
        prompt: 'Weather in Paris?',
      });
      const refused = result.steps[1]?.content.find((part) => part.type === 'tool-error');
      expect(refused).toMatchObject({ toolName: 'get_weather' });
      expect(String((refused as { error: unknown }).error)).toMatch(/AI_NoSuchToolError|unavailable tool/);
    }
    expect(ran).toEqual([]);
    expect(repairWarnings(logger.lines)).toEqual([
      '[tool-search-layer] ai-sdk: the model called "get_weather" by its own name and the SDK refused it (AI_NoSuchToolError), because repairToolCall from withToolSearch was not passed: spread the whole result into generateText or streamText, or pass its repairToolCall, so such calls run through call_tool or get an answer (warned once per layer)',
    ]);
  });

  it('runs through call_tool when the whole result is spread, with no warning', async () => {
    const logger = recordingLogger();
    const ran: Run[] = [];
    const result = await generateText({
      model: scriptedModel(DIRECT),
      ...withToolSearch(createToolSearch({ logger }), { sessionId: 's', tools: officeTools(ran) }),
      stopWhen: stepCountIs(4),
      prompt: 'Weather in Paris?',
    });
    expect(result.text).toBe('done');
    expect(ran).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(repairWarnings(logger.lines)).toEqual([]);
  });

  it("stays quiet in 'tools' mode when the repair is passed and answers a call made in the search's own step", async () => {
    const logger = recordingLogger();
    const ran: Run[] = [];
    const model = scriptedModel([
      {
        calls: [
          ['search_tools', { query: 'weather city', limit: 1 }],
          ['get_weather', { city: 'Oslo' }],
        ],
      },
      { calls: [['get_weather', { city: 'Oslo' }]] },
      { text: 'done' },
    ]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch({ logger }), { sessionId: 't', tools: officeTools(ran), exposure: 'tools' }),
      stopWhen: stepCountIs(4),
      prompt: 'Weather in Oslo?',
    });
    expect(ran).toEqual([{ name: 'get_weather', input: { city: 'Oslo' } }]);
    expect(repairWarnings(logger.lines)).toEqual([]);
  });
});
