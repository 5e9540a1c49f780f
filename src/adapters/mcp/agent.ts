// The Cloudflare Agents SDK's MCP client manager (`this.mcp` of an Agent) as a catalogue source.
import { ToolSearchError } from '../../base/errors.ts';
import {
  catalogueOver,
  checkCatalogueOptions,
  type Listed,
  type McpCatalogue,
  type McpCatalogueOptions,
} from './catalogue.ts';
import type { McpCallToolResult, McpRequestOptions, McpToolDefinition } from './types.ts';

/** A tool of the Cloudflare Agents SDK's `this.mcp.listTools()`: an MCP tool with the id of its server. */
export type AgentMcpTool = McpToolDefinition & { readonly serverId: string };

/**
 * The part of the Agents SDK's `this.mcp` (its `MCPClientManager`) the catalogue uses; the managers of Agents
 * releases on either MCP SDK major fit it (both take `callTool(params, undefined, options)`).
 */
export interface AgentMcp {
  listTools(): readonly AgentMcpTool[];
  callTool(
    params: { serverId: string; name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: never,
  ): Promise<unknown>;
}

/** Options of the Agents SDK catalogue: readable server names for its generated server ids. */
export interface AgentCatalogueOptions extends Omit<McpCatalogueOptions, 'watch'> {
  /** Server id -> name (from `this.getMcpServers().servers[id].name`); default: the id. */
  readonly serverNames?: Readonly<Record<string, string>> | undefined;
}

/**
 * A catalogue of a Cloudflare Agent's MCP tools (`this.mcp`). The Agents SDK keeps its list current;
 * call `refresh()` to read it again (or build the catalogue per request: indexes are cached by content).
 */
export function createAgentMcpCatalogue(mcp: AgentMcp, options: AgentCatalogueOptions = {}): Promise<McpCatalogue> {
  if (typeof mcp?.listTools !== 'function' || typeof mcp.callTool !== 'function') {
    throw new ToolSearchError('createAgentMcpCatalogue: mcp must be the Agent’s this.mcp (listTools and callTool)');
  }
  checkCatalogueOptions(options, 'createAgentMcpCatalogue');
  const names = options.serverNames ?? {};
  const list = async (server?: string): Promise<Listed[]> =>
    mcp
      .listTools()
      .map((tool) => ({
        server: names[tool.serverId] ?? tool.serverId,
        tool,
        call: (args: Record<string, unknown> | undefined, requestOptions?: McpRequestOptions) =>
          (mcp.callTool as (...args: unknown[]) => Promise<McpCallToolResult>).call(
            mcp,
            { serverId: tool.serverId, name: tool.name, ...(args && { arguments: args }) },
            undefined,
            requestOptions,
          ),
      }))
      .filter((entry) => server === undefined || entry.server === server);
  return catalogueOver(list, options);
}
