// Learning through the MCP router as docs/mcp.md shows it: `router.prepare(session)` before each model call (no
// messages) and `router.call` for each tool call, over a real MCP server (v2 SDK, in process), in 'tools' and
// 'bridge'. Each session searches, calls the tool it found, and must teach the layer (see learn-fixtures.ts).
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpCatalogue, createMcpRouter } from 'tool-search-layer/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue } from '../core/fixtures.ts';
import { expectTaught, expectUntaught, LEARN_ARGS, LEARN_QUERY, LEARN_TOOL, learningLayer } from './learn-fixtures.ts';

const ran: string[] = [];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  ran.length = 0;
});

/** The core catalogue on one MCP server (every parameter a string), connected in memory. */
async function connect() {
  const server = new McpServer({ name: 'office', version: '1.0.0' });
  for (const tool of catalogue) {
    const properties = Object.keys((tool.parameters as { properties?: object } | undefined)?.properties ?? {});
    server.registerTool(
      tool.name,
      {
        description: tool.description ?? '',
        inputSchema: z.object(Object.fromEntries(properties.map((key) => [key, z.string()]))),
      },
      async () => {
        ran.push(tool.name);
        return { content: [{ type: 'text', text: `${tool.name}: done` }] };
      },
    );
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  await client.connect(clientSide);
  closing.push(() => client.close());
  return client;
}

describe('learning through the MCP router, as its guide uses it', () => {
  for (const exposure of ['tools', 'bridge'] as const) {
    it(`${exposure}: prepare(session) with no messages still learns from the router's own calls`, async () => {
      const layer = learningLayer();
      await expectUntaught(layer);
      const mcpCatalogue = await createMcpCatalogue({ office: await connect() });
      closing.push(async () => mcpCatalogue.close());
      const router = createMcpRouter(layer, mcpCatalogue, { exposure });
      const session = { sessionId: `mcp-${exposure}` };
      // The model's rounds: search, then the found tool, then its answer; the host prepares before each.
      await router.prepare(session);
      const found = await router.call(session, 'search_tools', { query: LEARN_QUERY });
      expect(found.isError).toBeUndefined();
      await router.prepare(session);
      const result =
        exposure === 'bridge'
          ? await router.call(session, 'call_tool', { name: LEARN_TOOL, arguments: LEARN_ARGS })
          : await router.call(session, LEARN_TOOL, LEARN_ARGS);
      expect(result.isError).toBeUndefined();
      expect(ran).toEqual([LEARN_TOOL]);
      await router.prepare(session);
      await expectTaught(layer);
    });
  }

  it('a call the layer refused is no use of the tool, and teaches nothing', async () => {
    const layer = learningLayer();
    const mcpCatalogue = await createMcpCatalogue({ office: await connect() });
    closing.push(async () => mcpCatalogue.close());
    const router = createMcpRouter(layer, mcpCatalogue, { exposure: 'tools' });
    const session = { sessionId: 'mcp-refused' };
    await router.call(session, 'search_tools', { query: 'send email' });
    // Not found by that search: refused, reaches no server.
    const refused = await router.call(session, LEARN_TOOL, LEARN_ARGS);
    expect(refused.isError).toBe(true);
    await router.prepare(session);
    expect(ran).toEqual([]);
    await expectUntaught(layer);
  });
});
