// Learning through the LangChain.js adapter's own loop: the real `createAgent` with LangChain's fake model and
// MemorySaver, in 'bridge' and 'tools'. Each session searches, calls the tool it found, and must teach the layer
// (see learn-fixtures.ts).
import { AIMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, fakeModel, tool } from 'langchain';
import { toolSearchMiddleware } from 'tool-search-layer/langchain';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../core/fixtures.ts';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';

describe('learning through toolSearchMiddleware in createAgent', () => {
  for (const exposure of ['bridge', 'tools'] as const) {
    it(`${exposure}: the search_tools query is credited to the tool that ran`, async () => {
      const layer = learningLayer();
      await expectUntaught(layer);
      const ran: string[] = [];
      const tools = catalogue.map((t) =>
        tool(
          async () => {
            ran.push(t.name);
            return `${t.name} ran`;
          },
          { name: t.name, description: t.description ?? '', schema: t.parameters as Record<string, unknown> },
        ),
      );
      const call =
        exposure === 'bridge'
          ? { name: 'call_tool', args: { name: LEARN_TOOL, arguments: LEARN_ARGS }, id: 'c1' }
          : { name: LEARN_TOOL, args: LEARN_ARGS, id: 'c1' };
      const model = fakeModel()
        .respondWithTools([{ name: 'search_tools', args: { query: LEARN_QUERY }, id: 's1' }])
        .respondWithTools([call])
        .respond(new AIMessage('Take one.'));
      const agent = createAgent({
        model,
        tools,
        middleware: [toolSearchMiddleware(layer, { exposure })],
        checkpointer: new MemorySaver(),
      });
      await agent.invoke(
        { messages: [{ role: 'user', content: 'Do I need an umbrella in Oslo?' }] },
        { configurable: { thread_id: `learn-${exposure}` } },
      );
      expect(ran).toEqual([LEARN_TOOL]);
      await expectTaught(layer);
    });
  }
});
