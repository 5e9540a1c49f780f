// The MCP adapter with clients of the v2 SDK (`@modelcontextprotocol/client`, what Cloudflare Agents uses): a real
// server from npm over stdio, a v2 server in process, and a v1 client beside them in one catalogue.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { createToolSearch } from 'tool-search-layer';
import { createMcpCatalogue, createMcpRouter, type McpCallToolResult, type McpCatalogue } from 'tool-search-layer/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const text = (result: McpCallToolResult) => result.content[0]?.text;

// A v2 server in process: `echo` (which the v1 server below has too) and `slow`, which answers after 2 s.
const calls: string[] = [];
function serverV2() {
  const server = new McpServer(
    { name: 'weather', version: '2.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool(
    'echo',
    { description: 'Echo a message back, from the weather server', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => {
      calls.push(`weather echo:${message}`);
      return { content: [{ type: 'text', text: `weather: ${message}` }] };
    },
  );
  server.registerTool(
    'slow_forecast',
    { description: 'A forecast that takes two seconds', inputSchema: z.object({ city: z.string() }) },
    async ({ city }) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return { content: [{ type: 'text', text: `rain in ${city}` }] };
    },
  );
  return server;
}

async function connectV2(server: McpServer, client = new Client({ name: 'tsl-test-v2', version: '1.0.0' })) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

async function connectV1() {
  const server = new McpServerV1({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo a message back, from the notes server', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: `notes: ${message}` }] }),
  );
  server.registerTool('slow_note', { description: 'A note that takes two seconds', inputSchema: {} }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { content: [{ type: 'text', text: 'late' }] };
  });
  const [clientSide, serverSide] = InMemoryTransportV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'tsl-test-v1', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

let memory: Client;
let weather: Client;
let weatherServer: McpServer;
let notes: ClientV1;
let catalogue: McpCatalogue;
let memoryDir: string;

beforeAll(async () => {
  memoryDir = mkdtempSync(join(tmpdir(), 'tsl-memory-v2-'));
  memory = new Client({ name: 'tsl-test-v2', version: '1.0.0' });
  const script = join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist/index.js');
  await memory.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [script],
      env: { ...getDefaultEnvironment(), MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') },
      stderr: 'ignore',
    }),
  );
  weatherServer = serverV2();
  weather = await connectV2(weatherServer);
  notes = await connectV1();
  // Both majors in one catalogue.
  catalogue = await createMcpCatalogue({ memory, weather, notes });
}, 60_000);

afterAll(async () => {
  catalogue?.close();
  await Promise.all([memory?.close(), weather?.close(), notes?.close()]);
  rmSync(memoryDir, { recursive: true, force: true });
});

describe('createMcpCatalogue with v2 clients', () => {
  it('lists a real npm server over v2 stdio and a v2 server, beside a v1 client, names made unique', () => {
    const names = catalogue.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'slow_forecast', 'slow_note']));
    // `echo` is on the v2 and the v1 server: both get their server as a prefix.
    expect(names).toEqual(expect.arrayContaining(['weather__echo', 'notes__echo']));
    expect(names).not.toContain('echo');
    const read = catalogue.tools.find((tool) => tool.name === 'read_graph');
    expect(read).toMatchObject({ server: 'memory', groups: ['memory'], originalName: 'read_graph' });
    expect(read?.annotations?.readOnlyHint).toBe(true);
  });

  it('routes the model’s calls to the v2 server under its own name, after a search', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const session = { sessionId: 'v2' };
    const blind = await router.call(session, 'weather__echo', { message: 'hi' });
    expect(blind.isError).toBe(true);
    expect(calls).toEqual([]);
    await router.call(session, 'search_tools', { query: 'weather echo', limit: 2 });
    expect(text(await router.call(session, 'weather__echo', { message: 'hi' }))).toBe('weather: hi');
    expect(calls).toEqual(['weather echo:hi']);
    await router.call(session, 'search_tools', { query: 'create entities memory', limit: 1 });
    const created = await router.call(session, 'create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError).toBeFalsy();
    const graph = await catalogue.call('read_graph', {});
    expect(text(graph)).toContain('Ada');
  });

  it('hands request options to either major’s callTool (a timeout ends a slow call)', async () => {
    await expect(catalogue.call('slow_forecast', { city: 'Oslo' }, { timeout: 100 })).rejects.toThrow(/time/i);
    await expect(catalogue.call('slow_note', {}, { timeout: 100 })).rejects.toThrow(/time/i);
    const controller = new AbortController();
    const aborted = catalogue.call('slow_forecast', { city: 'Bergen' }, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toThrow();
  });

  it('re-lists a v2 server on notifications/tools/list_changed', async () => {
    const changed = new Promise<readonly { name: string }[]>((resolve) => {
      const off = catalogue.onChange((tools) => {
        off();
        resolve(tools);
      });
    });
    weatherServer.registerTool(
      'weather_alerts',
      { description: 'Severe weather alerts', inputSchema: z.object({ region: z.string() }) },
      async ({ region }) => ({ content: [{ type: 'text', text: `no alerts in ${region}` }] }),
    );
    const after = await changed;
    expect(after.map((tool) => tool.name)).toContain('weather_alerts');
    expect(text(await catalogue.call('weather_alerts', { region: 'north' }))).toBe('no alerts in north');
  });

  it('chains a v2 client’s own listChanged handler, and puts it back on close', async () => {
    const server = serverV2();
    let clientSaw: string[] = [];
    let seen: () => void = () => {};
    const client = await connectV2(
      server,
      new Client(
        { name: 'own-handler', version: '1.0.0' },
        {
          listChanged: {
            tools: {
              debounceMs: 0,
              onChanged: (_error, tools) => {
                clientSaw = (tools ?? []).map((tool) => tool.name);
                seen();
              },
            },
          },
        },
      ),
    );
    const own = await createMcpCatalogue({ own: client });
    const both = Promise.all([
      new Promise<void>((resolve) => own.onChange(() => resolve())),
      new Promise<void>((resolve) => {
        seen = resolve;
      }),
    ]);
    server.registerTool('added_later', { description: 'Added at runtime' }, async () => ({ content: [] }));
    await both;
    expect(own.tools.map((tool) => tool.name)).toContain('added_later');
    expect(clientSaw).toContain('added_later');

    own.close();
    const again = new Promise<void>((resolve) => {
      seen = resolve;
    });
    let relisted = false;
    own.onChange(() => {
      relisted = true;
    });
    server.registerTool('added_after_close', { description: 'Added after close' }, async () => ({ content: [] }));
    await again;
    expect(clientSaw).toContain('added_after_close');
    expect(relisted).toBe(false);
    await client.close();
  });
});
