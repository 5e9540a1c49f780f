// The LangChain.js adapter in the real `createAgent` loop, with LangChain's own fake model and MemorySaver: the tools
// offered on every model call are recorded by a middleware inside ours, and each host tool counts its invocations.
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware, fakeModel, tool } from 'langchain';
import { createMemoryStore, createToolSearch, type DiscoveredStore, ToolSearchError } from 'tool-search-layer';
import { toolSearchMiddleware } from 'tool-search-layer/langchain';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { catalogue } from '../core/fixtures.ts';

/** The core fixtures' 16 tools as LangChain tools (JSON Schema), and get_weather with a zod schema; calls counted. */
function hostTools() {
  const runs: { name: string; args: unknown }[] = [];
  const tools = catalogue
    .filter((t) => t.name !== 'get_weather')
    .map((t) =>
      tool(
        async (args: unknown) => {
          runs.push({ name: t.name, args });
          return `${t.name} ran`;
        },
        { name: t.name, description: t.description ?? '', schema: t.parameters as Record<string, unknown> },
      ),
    );
  const weather = tool(
    async (args: { city: string }) => {
      runs.push({ name: 'get_weather', args });
      return `sunny in ${args.city}`;
    },
    {
      name: 'get_weather',
      description: 'Current weather conditions for a city',
      schema: z.object({ city: z.string() }),
    },
  );
  return { tools: [weather, ...tools], runs };
}

/** Records the names of the tools each model call is offered (it sits inside the tool-search middleware). */
function recorder() {
  const offered: string[][] = [];
  const objects: unknown[][] = [];
  const middleware = createMiddleware({
    name: 'Recorder',
    wrapModelCall: async (request, handler) => {
      offered.push(request.tools.map((t) => (t as { name: string }).name));
      objects.push([...request.tools]);
      return handler(request);
    },
  });
  return { offered, objects, middleware };
}

const call = (name: string, args: Record<string, unknown>, id: string) => ({ name, args, id });
const thread = (id: string) => ({ configurable: { thread_id: id } });
const text = (messages: BaseMessage[]) => messages.map((m) => (typeof m.content === 'string' ? m.content : ''));

function setup(
  options: { exposure?: 'bridge' | 'tools'; store?: DiscoveredStore; checkpointer?: MemorySaver } = {},
  model = fakeModel(),
) {
  const host = hostTools();
  const rec = recorder();
  const layer = createToolSearch({ store: options.store ?? createMemoryStore(), logger: { warn() {} } });
  const agent = createAgent({
    model,
    tools: host.tools,
    middleware: [toolSearchMiddleware(layer, options.exposure ? { exposure: options.exposure } : {}), rec.middleware],
    checkpointer: options.checkpointer ?? new MemorySaver(),
  });
  return { agent, model, ...host, ...rec, layer };
}

describe('toolSearchMiddleware (langchain createAgent)', () => {
  it('offers the same tools every model call in the bridge, runs found tools through the host objects, refuses the rest', async () => {
    const model = fakeModel()
      .respondWithTools([call('search_tools', { query: 'weather city' }, 's1')])
      .respondWithTools([call('call_tool', { name: 'get_weather', arguments: { city: 'Paris' } }, 'c1')])
      .respondWithTools([call('get_forecast', { city: 'Oslo', days: '3' }, 'd1')])
      .respond(new AIMessage('done'))
      // Second invocation of the same thread: the found tool runs directly.
      .respondWithTools([call('get_weather', { city: 'Rome' }, 'd2')])
      .respond(new AIMessage('done again'))
      // Another thread: nothing found there, so the direct call and call_tool are refused.
      .respondWithTools([call('get_weather', { city: 'Nice' }, 'x1')])
      .respondWithTools([call('call_tool', { name: 'send_email', arguments: { to: 'a', body: 'b' } }, 'x2')])
      .respond(new AIMessage('refused'));
    const { agent, runs, offered, objects } = setup({}, model);
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'weather in Paris?' }] }, thread('t1'));
    expect(runs).toEqual([
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_forecast', args: { city: 'Oslo', days: '3' } },
    ]);
    expect(text(first.messages)).toContain('sunny in Paris');
    await agent.invoke({ messages: [{ role: 'user', content: 'and Rome?' }] }, thread('t1'));
    expect(runs.at(-1)).toEqual({ name: 'get_weather', args: { city: 'Rome' } });
    const other = await agent.invoke({ messages: [{ role: 'user', content: 'weather in Nice' }] }, thread('t2'));
    expect(runs).toHaveLength(3);
    const refusals = other.messages.filter((m) => m.getType() === 'tool').map((m) => String(m.content));
    expect(refusals).toHaveLength(2);
    for (const refusal of refusals) expect(refusal.startsWith('{"notCalled":')).toBe(true);
    // Every model call of every thread was offered the same two meta-tools, the same objects.
    expect(offered.length).toBe(9);
    for (const names of offered) expect(names).toEqual(['search_tools', 'call_tool']);
    for (const tools of objects) expect(tools).toEqual(objects[0]);
    for (const [i, tools] of objects.entries())
      for (const [j, t] of tools.entries()) expect(t, `${i}.${j}`).toBe(objects[0]?.[j]);
  });

  it('keeps a thread’s discoveries for a new agent over the same checkpointer, with the same store or an empty one', async () => {
    const checkpointer = new MemorySaver();
    const store = createMemoryStore();
    const script = fakeModel()
      .respondWithTools([call('search_tools', { query: 'forecast' }, 's1')])
      .respond(new AIMessage('found it'));
    await setup({ checkpointer, store }, script).agent.invoke(
      { messages: [{ role: 'user', content: 'forecast' }] },
      thread('r'),
    );
    for (const fresh of [store, createMemoryStore()]) {
      // Messages of their own ids: a new fake model numbers its replies from the start again, and a reply with the
      // id of a checkpointed message would replace it.
      const id = `r${Math.random()}`;
      const model = fakeModel()
        .respond(
          new AIMessage({ id, content: '', tool_calls: [call('get_forecast', { city: 'Oslo', days: '2' }, id)] }),
        )
        .respond(new AIMessage({ id: `${id}-end`, content: 'ok' }));
      const resumed = setup({ checkpointer, store: fresh }, model);
      await resumed.agent.invoke({ messages: [{ role: 'user', content: 'Oslo then' }] }, thread('r'));
      expect(resumed.runs).toEqual([{ name: 'get_forecast', args: { city: 'Oslo', days: '2' } }]);
    }
  });

  it('in tools mode offers what the thread found, so the tools change after a discovery (the control)', async () => {
    const model = fakeModel()
      .respondWithTools([call('search_tools', { query: 'forecast' }, 's1')])
      .respondWithTools([call('get_forecast', { city: 'Oslo', days: '1' }, 'd1')])
      .respond(new AIMessage('done'));
    const { agent, offered, runs } = setup({ exposure: 'tools' }, model);
    await agent.invoke({ messages: [{ role: 'user', content: 'forecast' }] }, thread('m'));
    expect(offered[0]).toEqual(['search_tools']);
    expect(offered[1]).toContain('get_forecast');
    expect(offered[1]).not.toEqual(offered[0]);
    expect(runs).toEqual([{ name: 'get_forecast', args: { city: 'Oslo', days: '1' } }]);
  });

  it('answers bad arguments with a corrective message that holds no stack or path, and never runs the tool', async () => {
    const model = fakeModel()
      .respondWithTools([call('search_tools', { query: 'weather' }, 's1')])
      .respondWithTools([call('call_tool', { name: 'get_weather', arguments: { city: 5 } }, 'b1')])
      .respondWithTools([call('get_weather', { town: 'Paris' }, 'b2')])
      .respondWithTools([call('call_tool', { name: 'no_such_tool', arguments: {} }, 'b3')])
      .respondWithTools([call('search_tools', { limit: 'x' }, 'b4')])
      .respond(new AIMessage('done'));
    const { agent, runs } = setup({}, model);
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'weather' }] }, thread('bad'));
    expect(runs).toEqual([]);
    const answers = out.messages.filter((m) => m.getType() === 'tool').map((m) => String(m.content));
    expect(answers).toHaveLength(5);
    for (const answer of answers.slice(1)) {
      expect(answer).not.toMatch(/\n\s+at |node_modules|\/work\//);
      expect(() => JSON.parse(answer)).not.toThrow();
    }
  });

  it('throws a clear error for a run without a thread id, and for a bad exposure', async () => {
    const { agent } = setup({}, fakeModel().respond(new AIMessage('hi')));
    await expect(agent.invoke({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/thread_id/);
    expect(() => toolSearchMiddleware(createToolSearch(), { exposure: 'native' as never })).toThrow(ToolSearchError);
  });
});
