// The AI SDK adapter's bridge (the default exposure) in real generateText loops with the SDK's mock model: the tools
// the model receives never change within a session, and each tool runs through call_tool with its input unchanged.
import { readFileSync } from 'node:fs';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { createToolSearch } from 'tool-search-layer';
import { withToolSearch } from 'tool-search-layer/ai-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { officeTools, type Run, SESSION, SESSION_RUNS, scriptedModel, type Turn } from './ai-sdk-fixtures.ts';

type Call = { tools?: unknown; toolChoice?: unknown; prompt: unknown[] };

/** SESSION for the bridge: searches, calls through call_tool, and one call by the tool's own name. */
const BRIDGED: Turn[] = SESSION.map((turn, i): Turn => {
  if ('search' in turn) return { calls: [['search_tools', { query: turn.search, limit: 1 }]] };
  if (!('call' in turn)) return { text: turn.text };
  // Round 10 calls get_weather by its own name: the adapter repairs it into the same call through call_tool.
  if (i === 10) return { calls: [[turn.call, turn.input]] };
  return { calls: [['call_tool', { name: turn.call, arguments: turn.input }]] };
});

/** The tool results the model was sent in a call's prompt. */
function toolResults(call: Call) {
  return (call.prompt as { role: string; content: unknown }[])
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content as { toolName: string; output: { type: string; value: unknown } }[]);
}

describe('exposure bridge (the default) in generateText', () => {
  it('sends the same tools at every step of a 12-round session across two generateText calls, and runs each discovery unchanged', async () => {
    const ran: Run[] = [];
    const layer = createToolSearch();
    const model = scriptedModel(BRIDGED);
    const settings = () => withToolSearch(layer, { sessionId: 'bridge-12', tools: officeTools(ran) });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Plan my day' }];
    const first = await generateText({ model, ...settings(), messages: prompt, stopWhen: stepCountIs(6) });
    const history = [...prompt, ...first.responseMessages, { role: 'user', content: 'Go on' } as ModelMessage];
    const second = await generateText({ model, ...settings(), messages: history, stopWhen: stepCountIs(6) });
    expect(second.text).toBe('done');

    const calls = model.doGenerateCalls as unknown as Call[];
    expect(calls).toHaveLength(12);
    expect(((calls[0]?.tools ?? []) as { name: string }[]).map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    for (const [i, call] of calls.entries()) {
      expect(JSON.stringify(call.tools), `step ${i}: tools`).toBe(JSON.stringify(calls[0]?.tools));
      expect(JSON.stringify(call.toolChoice), `step ${i}: toolChoice`).toBe(JSON.stringify(calls[0]?.toolChoice));
      if (i > 0) {
        const before = calls[i - 1]?.prompt as unknown[];
        expect(JSON.stringify(call.prompt.slice(0, before.length)), `step ${i}: earlier messages`).toBe(
          JSON.stringify(before),
        );
      }
    }
    // Each tool found ran from the step after its search, with the model's input unchanged.
    expect(ran).toEqual(SESSION_RUNS);
    const results = toolResults(calls[11] as Call);
    expect(results.filter((r) => JSON.stringify(r.output.value).startsWith('{"notCalled"'))).toEqual([]);
  });

  it('answers a call of a tool the session has not discovered, and bad arguments, without running anything', async () => {
    const ran: Run[] = [];
    const model = scriptedModel([
      { calls: [['call_tool', { name: 'send_email', arguments: { to: 'a', body: 'b' } }]] },
      { calls: [['search_tools', { query: 'send email', limit: 1 }]] },
      { calls: [['call_tool', { name: 'send_email', arguments: { to: 42 } }]] },
      { calls: [['call_tool', { name: 'send_mail', arguments: {} }]] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch(), { sessionId: 'bridge-bad', tools: officeTools(ran) }),
      stopWhen: stepCountIs(6),
      prompt: 'Mail Bob',
    });
    expect(ran).toEqual([]);
    const answers = toolResults(model.doGenerateCalls[4] as unknown as Call).map((r) => r.output.value);
    expect(answers[0]).toMatchObject({ notCalled: 'send_email', hint: expect.stringContaining('search_tools') });
    expect(answers[2]).toMatchObject({ notCalled: 'send_email' });
    expect(answers[3]).toMatchObject({ notCalled: 'send_mail' });
    for (const answer of [answers[0], answers[2], answers[3]]) {
      expect(JSON.stringify(answer).startsWith('{"notCalled":')).toBe(true);
    }
  });

  it('sends the direct tools beside the bridge, callable by name, and never reaches a tool of a hidden group', async () => {
    const ran: Run[] = [];
    const model = scriptedModel([
      { calls: [['get_weather', { city: 'Rome' }]] },
      { calls: [['call_tool', { name: 'send_email', arguments: { to: 'a', body: 'b' } }]] },
      { calls: [['search_tools', { query: 'email inbox' }]] },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch({ alwaysDirectTools: ['get_weather'] }), {
        sessionId: 'bridge-direct',
        tools: officeTools(ran),
        groups: { send_email: ['mail'], read_inbox: ['mail'] },
        enabledGroups: ['office'],
      }),
      stopWhen: stepCountIs(5),
      prompt: 'Weather in Rome, then mail',
    });
    const calls = model.doGenerateCalls as unknown as Call[];
    for (const call of calls) {
      expect((call.tools as { name: string }[]).map((t) => t.name)).toEqual([
        'search_tools',
        'call_tool',
        'get_weather',
      ]);
    }
    expect(ran).toEqual([{ name: 'get_weather', input: { city: 'Rome' } }]);
    const [, refused, searched] = toolResults(calls[3] as Call).map((r) => r.output.value);
    expect(refused).toMatchObject({ notCalled: 'send_email' });
    expect(JSON.stringify([refused, searched, calls[0]?.tools])).not.toMatch(/read_inbox/);
  });

  it('applies the named tool’s own schema parse, approval and model output to a bridged call', async () => {
    const received: unknown[] = [];
    const tools = {
      ...officeTools([]),
      count_words: tool({
        description: 'Count the words of a text',
        inputSchema: z.object({ text: z.string(), unit: z.string().default('words') }),
        execute: async (input) => {
          received.push(input);
          return input.text.split(' ').length;
        },
        toModelOutput: ({ output }) => ({ type: 'text', value: `${output} words` }),
      }),
      delete_file: tool({
        description: 'Delete a file from the drive',
        inputSchema: z.object({ path: z.string() }),
        needsApproval: true,
        execute: async () => {
          received.push('deleted');
          return 'deleted';
        },
      }),
    };
    const model = scriptedModel([
      { calls: [['search_tools', { query: 'count words delete file', limit: 2 }]] },
      { calls: [['call_tool', { name: 'count_words', arguments: { text: 'one two three' } }]] },
      { calls: [['call_tool', { name: 'delete_file', arguments: { path: '/tmp/x' } }]] },
    ]);
    const result = await generateText({
      model,
      ...withToolSearch(createToolSearch(), { sessionId: 'bridge-own', tools }),
      stopWhen: stepCountIs(5),
      prompt: 'Count, then delete',
    });
    // zod's default applied, as for a direct call; the tool's toModelOutput shaped what the model read.
    expect(received).toEqual([{ text: 'one two three', unit: 'words' }]);
    const [, counted] = toolResults(model.doGenerateCalls[2] as unknown as Call);
    expect(counted?.output).toEqual({ type: 'text', value: '3 words' });
    // The delete waits for the user's approval instead of running.
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
  });
});

describe('exposure bridge in streamText', () => {
  it('runs the same loop over a stream, with the same tools at every step', async () => {
    const ran: Run[] = [];
    const turns = BRIDGED.slice(0, 4);
    let step = 0;
    const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
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
          for (const [i, [toolName, input]] of turn.calls.entries()) {
            parts.push({ type: 'tool-call', toolCallId: `s${step}-${i}`, toolName, input: JSON.stringify(input) });
          }
        }
        const unified = 'text' in turn ? 'stop' : 'tool-calls';
        parts.push({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
        step++;
        return { stream: convertArrayToReadableStream(parts) } as never;
      },
    });
    const result = streamText({
      model,
      ...withToolSearch(createToolSearch(), { sessionId: 'bridge-stream', tools: officeTools(ran) }),
      stopWhen: stepCountIs(6),
      prompt: 'Weather, then mail',
    });
    expect(await result.text).toBe('done');
    // What the README's web example returns for the next request: the whole turn, with the search and the call.
    const turn = await result.responseMessages;
    const parts = turn.flatMap((message) =>
      Array.isArray(message.content) ? (message.content as { type: string; toolName?: string }[]) : [],
    );
    const called = parts.filter((part) => part.type === 'tool-call').map((part) => part.toolName);
    expect(called).toEqual(['search_tools', 'call_tool', 'search_tools', 'call_tool']);
    expect(parts.filter((part) => part.type === 'tool-result')).toHaveLength(4);
    expect((await result.response).messages.length).toBeLessThan(turn.length);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const web = readme.slice(readme.indexOf('### A web chat client'), readme.indexOf('### A Cloudflare Worker'));
    expect(web).toContain('return await result.responseMessages;');
    const calls = model.doStreamCalls;
    expect(calls).toHaveLength(5);
    for (const call of calls) expect(JSON.stringify(call.tools)).toBe(JSON.stringify(calls[0]?.tools));
    expect(ran).toEqual(SESSION_RUNS.slice(0, 2));
  });
});

describe("AI SDK bridge with the layer's Chinese texts", () => {
  it("sends the model the zh search tool from the first step, though the texts load on the layer's first call", async () => {
    const ran: Run[] = [];
    const model = scriptedModel([{ text: '好的' }]);
    await generateText({
      model,
      ...withToolSearch(createToolSearch({ locale: 'zh' }), { sessionId: 'zh', tools: officeTools(ran) }),
      prompt: '明天巴黎的天气',
    });
    const sent = model.doGenerateCalls[0]?.tools?.find((t) => t.name === 'search_tools') as { description?: string };
    expect(sent.description).toMatch(/[\u4e00-\u9fff]/);
    expect(sent.description).not.toMatch(/Search the tools/);
  });
});
