// MCP servers through connected SDK clients: every page listed, re-listed when a server says its tools changed.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  type Tool as McpSdkTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '../../core/errors.ts';
import {
  catalogueOver,
  checkCatalogueOptions,
  type Listed,
  type McpCatalogue,
  type McpCatalogueOptions,
} from './catalogue.ts';

/** A connected MCP client, as the catalogue uses it; the SDK's `Client` is one, over any transport. */
export type McpClient = Pick<Client, 'listTools' | 'callTool' | 'setNotificationHandler' | 'getServerVersion'>;

const MAX_PAGES = 1000;
const TOOLS_CHANGED = 'notifications/tools/list_changed';

/** Lists every page of a client's tools, following `nextCursor`. */
async function listAll(client: McpClient): Promise<McpSdkTool[]> {
  const tools: McpSdkTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
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
        call: (args: Record<string, unknown> | undefined, requestOptions?: RequestOptions) =>
          client.callTool({ name: tool.name, arguments: args }, undefined, requestOptions) as Promise<CallToolResult>,
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
          const watched = clients.filter(([, client]) => typeof client.setNotificationHandler === 'function');
          const restore = watched.map(([server, client]) => {
            // The SDK keeps one handler per method: chain the one already there (the client's own
            // `listChanged` option installs one) and put it back on close.
            const handlers = (client as { _notificationHandlers?: Map<string, (n: unknown) => Promise<void>> })
              ._notificationHandlers;
            const before = handlers?.get(TOOLS_CHANGED);
            client.setNotificationHandler(ToolListChangedNotificationSchema, async (notification) => {
              await Promise.all([refresh(server), before?.(notification)]);
            });
            return () => (before ? handlers?.set(TOOLS_CHANGED, before) : handlers?.delete(TOOLS_CHANGED));
          });
          return () => {
            for (const undo of restore) undo();
          };
        };
  return catalogueOver(list, options, watch);
}
