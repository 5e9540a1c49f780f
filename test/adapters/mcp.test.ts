// The MCP adapter against real servers from npm (over stdio) and real SDK servers in process.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToolSearch, type Message } from 'tool-search-layer';
import {
  createAgentMcpCatalogue,
  createMcpCatalogue,
  createMcpRouter,
  type McpCallToolResult,
  type McpCatalogue,
  type McpSearchResult,
} from 'tool-search-layer/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const serverScript = (name: string) =>
  join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist/index.js');

async function stdioClient(name: string, args: string[] = [], env: Record<string, string> = {}) {
  const client = new Client({ name: 'tool-search-layer-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript(name), ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'ignore',
  });
  await client.connect(transport);
  return client;
}

async function inMemoryClient(server: McpServer | Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tool-search-layer-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: McpCallToolResult) => (result.content[0] as { text: string }).text;

// A tiny real SDK server: its `echo` collides with the everything server's, and it can add a tool at runtime.
const tinyCalls: string[] = [];
function tinyServer() {
  const server = new McpServer({ name: 'tiny', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'echo',
    { description: 'Echo a message back, from the tiny server', inputSchema: { message: z.string() } },
    async ({ message }) => {
      tinyCalls.push(`echo:${message}`);
      return { content: [{ type: 'text', text: `tiny: ${message}` }] };
    },
  );
  return server;
}

// A low-level SDK server that pages its tool list, two tools a page.
function pagedServer() {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  const all = ['alpha_report', 'beta_report', 'gamma_report', 'delta_report', 'epsilon_report'].map((name) => ({
    name,
    description: `The ${name.split('_')[0]} quarterly report`,
    inputSchema: { type: 'object' as const, properties: {} },
  }));
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const next = start + 2;
    return { tools: all.slice(start, next), ...(next < all.length && { nextCursor: String(next) }) };
  });
  return server;
}

let everything: Client;
let memory: Client;
let tiny: Client;
let tinyMcp: McpServer;
let catalogue: McpCatalogue;
let memoryDir: string;

beforeAll(async () => {
  memoryDir = mkdtempSync(join(tmpdir(), 'tsl-memory-'));
  [everything, memory] = await Promise.all([
    stdioClient('server-everything', ['stdio']),
    stdioClient('server-memory', [], { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') }),
  ]);
  tinyMcp = tinyServer();
  tiny = await inMemoryClient(tinyMcp);
  catalogue = await createMcpCatalogue({ everything, memory, tiny });
}, 60_000);

afterAll(async () => {
  catalogue?.close();
  await Promise.all([everything?.close(), memory?.close(), tiny?.close()]);
  rmSync(memoryDir, { recursive: true, force: true });
});

describe('createMcpCatalogue over real servers', () => {
  it('maps every server’s tools, with groups, annotations and prefixes only for a shared name', () => {
    const names = catalogue.tools.map((tool) => tool.name);
    expect(names).toContain('create_entities');
    expect(names).toContain('get-sum');
    expect(names).toContain('everything__echo');
    expect(names).toContain('tiny__echo');
    expect(names).not.toContain('echo');
    const deleting = catalogue.tools.find((tool) => tool.name === 'delete_entities');
    expect(deleting).toMatchObject({
      groups: ['memory'],
      server: 'memory',
      originalName: 'delete_entities',
      title: 'Delete Entities',
      annotations: { destructiveHint: true, readOnlyHint: false },
      parameters: { type: 'object', properties: { entityNames: expect.any(Object) } },
    });
    expect(deleting?.description).toMatch(/^\[memory\] /);
  });

  it('names servers from their serverInfo when given as an array, and can prefix every name', async () => {
    const both = await createMcpCatalogue([memory, tiny], { prefix: 'all', watch: false });
    expect(new Set(both.tools.map((tool) => tool.server))).toEqual(new Set(['memory-server', 'tiny']));
    expect(both.tools.map((tool) => tool.name)).toContain('memory-server__read_graph');
    expect(both.tools.map((tool) => tool.name)).toContain('tiny__echo');
  });

  it('follows nextCursor through every page', async () => {
    const paged = await inMemoryClient(pagedServer());
    const pages = await createMcpCatalogue({ paged }, { watch: false });
    expect(pages.tools.map((tool) => tool.originalName)).toEqual([
      'alpha_report',
      'beta_report',
      'gamma_report',
      'delta_report',
      'epsilon_report',
    ]);
    await paged.close();
  });

  it('re-lists a server on notifications/tools/list_changed', async () => {
    const before = catalogue.tools;
    const changed = new Promise<readonly { name: string }[]>((resolve) => {
      const off = catalogue.onChange((tools) => {
        off();
        resolve(tools);
      });
    });
    tinyMcp.registerTool(
      'tiny_forecast',
      { description: 'Tomorrow’s forecast, from the tiny server', inputSchema: { city: z.string() } },
      async ({ city }) => {
        tinyCalls.push(`forecast:${city}`);
        return { content: [{ type: 'text', text: `sunny in ${city}` }] };
      },
    );
    const after = await changed;
    expect(after.map((tool) => tool.name)).toContain('tiny_forecast');
    expect(catalogue.tools).not.toBe(before);
    // The re-listed server keeps its place: the order of the other tools is unchanged.
    const others = (tools: readonly { name: string }[]) =>
      tools.map((t) => t.name).filter((n) => n !== 'tiny_forecast');
    expect(others(after)).toEqual(others(before));
  });
});

describe('watching a client that has its own listChanged handler', () => {
  it('chains the client’s handler, and puts it back on close', async () => {
    const server = tinyServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    let clientSaw: string[] = [];
    let seen: () => void = () => {};
    const client = new Client(
      { name: 'own-handler', version: '1.0.0' },
      {
        listChanged: {
          tools: {
            onChanged: (_error, tools) => {
              clientSaw = (tools ?? []).map((tool) => tool.name);
              seen();
            },
          },
        },
      },
    );
    await client.connect(clientSide);
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

describe('createMcpRouter', () => {
  it('exposes search_tools, searches by server name, and returns annotations', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const { tools, bypassed } = await router.prepare({ sessionId: 'r1' });
    expect(bypassed).toBe(false);
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools']);
    const result = (await router.search({ sessionId: 'r1' }, { query: 'memory delete entities' })) as McpSearchResult;
    const found = result.tools.find((tool) => tool.name === 'delete_entities');
    expect(found).toMatchObject({ server: 'memory', title: 'Delete Entities', annotations: { destructiveHint: true } });
    expect(Object.keys(found ?? {}).slice(0, 3)).toEqual(['name', 'description', 'parameters']);
    // read_graph's own name and description never say "memory": only its server does.
    const byServer = (await router.search({ sessionId: 'r1' }, { query: 'memory', limit: 20 })) as McpSearchResult;
    expect(byServer.tools.map((tool) => tool.name)).toContain('read_graph');
    expect(new Set(byServer.tools.map((tool) => tool.server))).toEqual(new Set(['memory']));
  });

  it('routes a discovered tool’s call to its server under the server’s own name', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const context = { sessionId: 'route' };
    await router.call(context, 'search_tools', { query: 'echo message', limit: 5 });
    const tinyEcho = await router.call(context, 'tiny__echo', { message: 'hi' });
    expect(text(tinyEcho)).toBe('tiny: hi');
    const everythingEcho = await router.call(context, 'everything__echo', '{"message":"hey"}');
    expect(text(everythingEcho)).toBe('Echo: hey');

    await router.call(context, 'search_tools', { query: 'create entities knowledge graph' });
    const created = await router.call(context, 'create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError).toBeFalsy();
    const graph = await memory.callTool({ name: 'read_graph', arguments: {} });
    expect(JSON.stringify(graph.content)).toContain('Ada');
  });

  for (const mode of ['hint', 'discover'] as const) {
    it(`never reaches a server for a tool the model was not shown ('${mode}')`, async () => {
      const layer = createToolSearch();
      const router = createMcpRouter(layer, catalogue, { onUndiscoveredCall: mode });
      const context = { sessionId: `blind-${mode}` };
      const calls = tinyCalls.length;
      const answer = await router.call(context, 'tiny__echo', { message: 'blind' });
      expect(answer.isError).toBe(true);
      expect(text(answer).startsWith('{"notCalled":"tiny__echo"')).toBe(true);
      expect(tinyCalls.length).toBe(calls);
      const body = JSON.parse(text(answer));
      if (mode === 'hint') {
        expect(body.hint).toContain('search_tools');
        expect(body.tools).toBeUndefined();
      } else {
        expect(body.tools[0]).toMatchObject({ name: 'tiny__echo', parameters: { properties: { message: {} } } });
        // Shown now: the next call with valid arguments runs.
        expect(text(await router.call(context, 'tiny__echo', { message: 'again' }))).toBe('tiny: again');
      }
      // The corrective answer in the history never counts as a use.
      const history: Message[] = [
        { role: 'assistant', toolCalls: [{ id: 'x', name: 'tiny__echo' }] },
        { role: 'tool', toolCallId: 'x', content: text(answer) },
      ];
      const { discovered } = await router.prepare({ ...context, messages: history });
      expect(discovered).toEqual(mode === 'hint' ? [] : ['tiny__echo']);
    });
  }

  it('hides a server outside the enabled groups from search and calls', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const context = { sessionId: 'groups', enabledGroups: ['everything'] };
    const result = (await router.search(context, { query: 'entities graph memory', limit: 20 })) as McpSearchResult;
    expect(result.tools.every((tool) => tool.server === 'everything')).toBe(true);
    const answer = JSON.parse(text(await router.call(context, 'read_graph', {})));
    expect(answer.notCalled).toBe('read_graph');
    expect(JSON.stringify(answer.closest ?? [])).not.toMatch(/graph|entities/);
  });

  it('answers arguments that are not an object with an error, calling nothing', async () => {
    const router = createMcpRouter(createToolSearch(), catalogue);
    const context = { sessionId: 'args' };
    await router.call(context, 'search_tools', { query: 'tiny echo' });
    const calls = tinyCalls.length;
    const answer = await router.call(context, 'tiny__echo', 'not json');
    expect(answer.isError).toBe(true);
    expect(tinyCalls.length).toBe(calls);
    const bad = await router.call(context, 'search_tools', 42);
    expect(bad.isError).toBe(true);
    expect(JSON.parse(text(bad))).toMatchObject({ error: expect.any(String), hint: expect.any(String) });
  });
});

describe('createAgentMcpCatalogue', () => {
  it('takes the Agents SDK’s this.mcp.listTools() (tools with serverId) and routes by serverId', async () => {
    // The shape of the Agents SDK's MCPClientManager: generated server ids, listTools() and callTool({ serverId }).
    const connections: Record<string, Client> = { k3x9v2aa: memory, p0q8w1bb: tiny };
    const tools = new Map<
      string,
      (Awaited<ReturnType<Client['listTools']>>['tools'][number] & { serverId: string })[]
    >();
    for (const [id, client] of Object.entries(connections)) {
      tools.set(
        id,
        (await client.listTools()).tools.map((tool) => ({ ...tool, serverId: id })),
      );
    }
    const mcp = {
      listTools: () => [...tools.values()].flat(),
      callTool: (params: { serverId: string; name: string; arguments?: Record<string, unknown> }) =>
        (connections[params.serverId] as Client).callTool({ name: params.name, arguments: params.arguments }),
    };
    const agentCatalogue = await createAgentMcpCatalogue(mcp, { serverNames: { k3x9v2aa: 'memory' } });
    const echo = agentCatalogue.tools.find((tool) => tool.originalName === 'echo');
    expect(echo).toMatchObject({ name: 'echo', server: 'p0q8w1bb', groups: ['p0q8w1bb'] });
    expect(agentCatalogue.tools.find((tool) => tool.name === 'read_graph')?.server).toBe('memory');
    const router = createMcpRouter(createToolSearch(), agentCatalogue);
    await router.call({ sessionId: 'agent' }, 'search_tools', { query: 'echo' });
    expect(text(await router.call({ sessionId: 'agent' }, 'echo', { message: 'cf' }))).toBe('tiny: cf');
  });
});

describe('options', () => {
  it('throws ToolSearchError for bad options', async () => {
    expect(() => createMcpCatalogue({ tiny }, { prefix: 'some' as never })).toThrow(/options\.prefix/);
    expect(() => createMcpCatalogue({ tiny: {} as never })).toThrow(/servers\.tiny/);
    expect(() => createMcpRouter(createToolSearch(), catalogue, { onUndiscoveredCall: 'run' as never })).toThrow(
      /onUndiscoveredCall/,
    );
    await expect(catalogue.call('no_such_tool')).rejects.toThrow(/no_such_tool/);
  });
});
