// MCP servers as one catalogue: tools from every server in the layer's shape, names made unique, calls routed back.
import { ToolSearchError } from '../../base/errors.ts';
import type { JsonSchema, Logger, Tool } from '../../base/types.ts';
import type { McpCallToolResult, McpRequestOptions, McpToolAnnotations, McpToolDefinition } from './types.ts';

/** One MCP tool in the layer's shape, with what it takes to route a call back to its server. */
export interface McpTool extends Tool {
  /** The name the model sees: the server's own name, or `<server>__<name>` when two servers share it. */
  readonly name: string;
  /** The server's description, after `[<server>] ` so that the server's name is searchable. */
  readonly description: string;
  /** The tool's `inputSchema`. */
  readonly parameters: JsonSchema | null;
  /** `[server]`: enable or hide a whole server with `enabledGroups`. */
  readonly groups: readonly [string];
  /** `[server]`, for an index that reads keywords. */
  readonly keywords: readonly [string];
  /** The server's hints (`readOnlyHint`, `destructiveHint`, ...) and `title`, as it sent them. */
  readonly annotations?: McpToolAnnotations | undefined;
  readonly title?: string | undefined;
  /** The server's name, as the catalogue knows it. */
  readonly server: string;
  /** The tool's name on its server, which a routed call uses. */
  readonly originalName: string;
}

/** Tools from several MCP servers, kept current, with calls routed back to the server that has them. */
export interface McpCatalogue {
  /** The current tools; a new array after each change, the same array in between. */
  readonly tools: readonly McpTool[];
  /** Lists the tools again, of one server or of all. */
  refresh(server?: string): Promise<void>;
  /** Calls a tool by the name the model sees, on its server, with its own name. Throws for a name not in the catalogue. */
  call(name: string, args?: Record<string, unknown>, options?: McpRequestOptions): Promise<McpCallToolResult>;
  /** Runs `listener` after every change of `tools`; returns the unsubscribe function. */
  onChange(listener: (tools: readonly McpTool[]) => void): () => void;
  /** Stops watching the servers' `tools/list_changed` notifications. */
  close(): void;
}

/** How the catalogue names tools and watches servers. */
export interface McpCatalogueOptions {
  /** 'colliding' (default): only a name two servers share gets `<server><separator>`, on every server that has it; 'all': every name does. */
  readonly prefix?: 'colliding' | 'all' | undefined;
  /** Between server and tool name. Default '__' (provider tool names allow `[A-Za-z0-9_-]`). */
  readonly separator?: string | undefined;
  /** Re-list a server's tools on its `notifications/tools/list_changed`. Default true. */
  readonly watch?: boolean | undefined;
  /** Receives warnings (a server that fails to list, a name skipped). Default: console. */
  readonly logger?: Logger | undefined;
}

/** One listed tool of one server, with the call that reaches it. */
export interface Listed {
  readonly server: string;
  readonly tool: McpToolDefinition;
  readonly call: (args: Record<string, unknown> | undefined, options?: McpRequestOptions) => Promise<McpCallToolResult>;
}

const safe = (server: string) => server.replace(/[^A-Za-z0-9_-]/g, '_');

/** Builds the catalogue's tools from every server's list: unique names, server groups, routes. */
export function toMcpTools(
  listed: readonly Listed[],
  options: McpCatalogueOptions,
  warn: (message: string) => void,
): { tools: McpTool[]; routes: Map<string, Listed> } {
  const separator = options.separator ?? '__';
  const servers = new Map<string, Set<string>>();
  for (const { server, tool } of listed) {
    const set = servers.get(tool.name) ?? new Set();
    set.add(server);
    servers.set(tool.name, set);
  }
  const tools: McpTool[] = [];
  const routes = new Map<string, Listed>();
  for (const entry of listed) {
    const { server, tool } = entry;
    if (typeof tool?.name !== 'string' || tool.name === '') continue;
    const shared = (servers.get(tool.name)?.size ?? 0) > 1;
    const name = options.prefix === 'all' || shared ? `${safe(server)}${separator}${tool.name}` : tool.name;
    if (routes.has(name)) {
      warn(`mcp: "${name}" of server "${server}" is skipped: another tool already has that name`);
      continue;
    }
    const description = typeof tool.description === 'string' ? tool.description : '';
    const title = tool.title ?? tool.annotations?.title;
    routes.set(name, entry);
    tools.push({
      name,
      description: description ? `[${server}] ${description}` : `[${server}]`,
      parameters: (tool.inputSchema as JsonSchema | undefined) ?? null,
      groups: [server],
      keywords: [server],
      ...(tool.annotations && { annotations: tool.annotations }),
      ...(title !== undefined && { title }),
      server,
      originalName: tool.name,
    });
  }
  return { tools, routes };
}

/** The catalogue over a source of listed tools; `watch` installs the notification handlers, if any. */
export function catalogueOver(
  list: (server?: string) => Promise<readonly Listed[]>,
  options: McpCatalogueOptions,
  watch?: (refresh: (server: string) => Promise<void>) => () => void,
): Promise<McpCatalogue> {
  const logger = options.logger ?? console;
  const warn = (message: string) => logger.warn(`[tool-search-layer] ${message}`);
  // Per server, in the order servers were first listed: a re-listed server keeps its place.
  let byServer = new Map<string, Listed[]>();
  let current: { tools: McpTool[]; routes: Map<string, Listed> } = { tools: [], routes: new Map() };
  const listeners = new Set<(tools: readonly McpTool[]) => void>();
  // Refreshes run one at a time, so a slow list never overwrites a newer one.
  let queue: Promise<void> = Promise.resolve();

  const refresh = (server?: string): Promise<void> => {
    const run = async () => {
      const fresh = await list(server);
      if (server === undefined) byServer = new Map();
      else byServer.set(server, []);
      for (const entry of fresh) {
        const entries = byServer.get(entry.server) ?? [];
        entries.push(entry);
        byServer.set(entry.server, entries);
      }
      current = toMcpTools([...byServer.values()].flat(), options, warn);
      for (const listener of listeners) listener(current.tools);
    };
    queue = queue.then(run, run);
    return queue;
  };

  let stop = () => {};
  const catalogue: McpCatalogue = {
    get tools() {
      return current.tools;
    },
    refresh,
    async call(name, args, requestOptions) {
      const route = current.routes.get(name);
      if (!route) throw new ToolSearchError(`mcp: no tool named "${name}" in the catalogue`);
      return route.call(args, requestOptions);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      stop();
    },
  };
  return refresh().then(() => {
    if (watch) stop = watch((server) => refresh(server));
    return catalogue;
  });
}

/** Throws ToolSearchError for options no catalogue can use. */
export function checkCatalogueOptions(options: McpCatalogueOptions, call: string): void {
  if (typeof options !== 'object' || options === null) throw new ToolSearchError(`${call}: options must be an object`);
  if (options.prefix !== undefined && options.prefix !== 'colliding' && options.prefix !== 'all') {
    throw new ToolSearchError(`${call}: options.prefix must be "colliding" or "all"`);
  }
  if (options.separator !== undefined && (typeof options.separator !== 'string' || options.separator === '')) {
    throw new ToolSearchError(`${call}: options.separator must be a non-empty string`);
  }
}
