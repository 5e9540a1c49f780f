// MCP servers through connected clients of either SDK major: every page listed, re-listed when a server says its
// tools changed.
import { ToolSearchError } from '../../base/errors.ts';
import {
  catalogueOver,
  checkCatalogueOptions,
  type Listed,
  type McpCatalogue,
  type McpCatalogueOptions,
} from './catalogue.ts';
import type { McpCallToolResult, McpClient, McpRequestOptions, McpToolDefinition } from './types.ts';
import { watchToolsChanged } from './watch.ts';

const MAX_PAGES = 1000;

// v2 clients answer a list from their cache while it is fresh; a catalogue that lists asks the server (v1 ignores it).
const FRESH = { cacheMode: 'refresh' };

/** Lists every page of a client's tools, following `nextCursor`. */
async function listAll(client: McpClient): Promise<McpToolDefinition[]> {
  const list = client.listTools as (
    params?: { cursor: string },
    options?: object,
  ) => ReturnType<McpClient['listTools']>;
  const tools: McpToolDefinition[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list.call(client, cursor === undefined ? undefined : { cursor }, FRESH);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    // A server that repeats a cursor would list forever.
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return tools;
}

/** The servers' names: the record's keys, or each server's own `serverInfo.name`, made unique. */
function named(servers: Readonly<Record<string, McpClient>> | readonly McpClient[]): [string, McpClient][] {
  if (!Array.isArray(servers)) return Object.entries(servers);
  const used = new Set<string>();
  return (servers as readonly McpClient[]).map((client, i) => {
    const base = client.getServerVersion?.()?.name || `server${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return [name, client];
  });
}

/**
 * A catalogue of the tools of connected MCP clients (any transport), re-listed when a server says its tools changed.
 * @example
 * const catalogue = await createMcpCatalogue({ github, memory })
 * const router = createMcpRouter(createToolSearch(), catalogue)
 */
export function createMcpCatalogue(
  servers: Readonly<Record<string, McpClient>> | readonly McpClient[],
  options: McpCatalogueOptions = {},
): Promise<McpCatalogue> {
  if (typeof servers !== 'object' || servers === null) {
    throw new ToolSearchError('createMcpCatalogue: servers must be an array of clients or a record of name to client');
  }
  checkCatalogueOptions(options, 'createMcpCatalogue');
  for (const [key, client] of Object.entries(servers)) {
    if (typeof client?.listTools !== 'function' || typeof client.callTool !== 'function') {
      throw new ToolSearchError(`createMcpCatalogue: servers.${key} must be a connected MCP Client`);
    }
  }
  const clients = named(servers);
  const warn = (message: string) => (options.logger ?? console).warn(`[tool-search-layer] ${message}`);
  const previous = new Map<string, Listed[]>();
  const listOne = async ([server, client]: [string, McpClient]): Promise<Listed[]> => {
    try {
      const tools = await listAll(client);
      const entries = tools.map((tool) => ({
        server,
        tool,
        call: (args: Record<string, unknown> | undefined, requestOptions?: McpRequestOptions) =>
          callTool(client, { name: tool.name, ...(args && { arguments: args }) }, requestOptions),
      }));
      previous.set(server, entries);
      return entries;
    } catch (error) {
      // A server that fails to list keeps the tools it listed last, rather than emptying the catalogue.
      warn(`mcp: listing the tools of server "${server}" failed (${error}); its last list is kept`);
      return previous.get(server) ?? [];
    }
  };
  const list = async (server?: string) =>
    (await Promise.all(clients.filter(([name]) => server === undefined || name === server).map(listOne))).flat();
  const watch =
    options.watch === false
      ? undefined
      : (refresh: (server: string) => Promise<void>) => {
          const undo = clients.map(([server, client]) => watchToolsChanged(client, () => refresh(server)));
          return () => {
            for (const stop of undo) stop();
          };
        };
  return catalogueOver(list, options, watch);
}

/** Calls a tool with either major's signature: v1 is `(params, resultSchema?, options?)`, v2 `(params, options?)`. */
function callTool(
  client: McpClient,
  params: { name: string; arguments?: Record<string, unknown> },
  options: McpRequestOptions | undefined,
): Promise<McpCallToolResult> {
  const call = client.callTool as (...args: unknown[]) => Promise<McpCallToolResult>;
  if (options === undefined) return call.call(client, params);
  // v1's `resultSchema` has a default, so its callTool declares one parameter; v2's declares two.
  return call.length >= 2 ? call.call(client, params, options) : call.call(client, params, undefined, options);
}
