// The MCP router in the bridge mode (SPEC 11): a constant tools block, and `call_tool` reaching the MCP server of
// the tool it names, with a v2 client against a v2 server in process.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { createToolSearch, ToolSearchError } from 'tool-search-layer';
import { createMcpCatalogue, createMcpRouter, type McpCallToolResult, type McpCatalogue } from 'tool-search-layer/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const text = (result: McpCallToolResult) => {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
};
const calls: string[] = [];
let client: Client;
let catalogue: McpCatalogue;

beforeAll(async () => {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  for (const [name, description] of [
    ['add_to_cart', 'Add a product to the shopping cart'],
    ['remove_from_cart', 'Remove a product from the shopping cart'],
    ['list_orders', 'List the customer’s past orders'],
    ['track_parcel', 'Track a parcel by its tracking number'],
    ['refund_order', 'Refund an order'],
    ['apply_coupon', 'Apply a coupon code to the cart'],
    ['check_stock', 'Check whether a product is in stock'],
  ] as const) {
    server.registerTool(name, { description, inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
      calls.push(`${name}:${id}`);
      return { content: [{ type: 'text', text: `${name} ${id} done` }] };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'bridge-test', version: '1.0.0' });
  await client.connect(clientSide);
  catalogue = await createMcpCatalogue({ shop: client });
});

afterAll(async () => {
  catalogue?.close();
  await client?.close();
});

describe('createMcpRouter with exposure "bridge"', () => {
  it('keeps the tools block byte-identical while the session discovers, and calls through call_tool', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue, { exposure: 'bridge' });
    const session = { sessionId: 'bridge-1' };
    const first = await router.prepare(session);
    expect(first.tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);

    const refused = await router.call(session, 'call_tool', { name: 'track_parcel', arguments: { id: 'P1' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^\{"notCalled":"track_parcel"/);
    expect(calls).toEqual([]);

    const found = JSON.parse(text(await router.call(session, 'search_tools', { query: 'track parcel', limit: 1 })));
    expect(found.tools[0]).toMatchObject({ name: 'track_parcel', server: 'shop', parameters: { type: 'object' } });
    // `arguments` as a JSON string, as some models send it.
    const done = await router.call(
      session,
      'call_tool',
      JSON.stringify({ name: 'track_parcel', arguments: '{"id":"P1"}' }),
    );
    expect(text(done)).toBe('track_parcel P1 done');
    expect(calls).toEqual(['track_parcel:P1']);

    const again = await router.prepare(session);
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));
  });

  it('refuses arguments that break the tool’s schema, reaching no server', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue, { exposure: 'bridge' });
    const session = { sessionId: 'bridge-2' };
    await router.call(session, 'search_tools', { query: 'refund order', limit: 1 });
    const before = calls.length;
    const bad = await router.call(session, 'call_tool', { name: 'refund_order', arguments: { id: 42 } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(text(bad))).toMatchObject({ notCalled: 'refund_order' });
    expect(calls.length).toBe(before);
  });

  it('takes the mode per call from the context, and checks the option', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const tools = (await router.prepare({ sessionId: 'b3', exposure: 'bridge' })).tools.map((tool) => tool.name);
    expect(tools).toEqual(['search_tools', 'call_tool']);
    expect(() => createMcpRouter(createToolSearch(), catalogue, { exposure: 'native' as never })).toThrow(
      ToolSearchError,
    );
  });
});
