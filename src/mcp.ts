// tool-search-layer/mcp: one catalogue over many MCP servers, and the layer routing the model's calls to them.

export type { McpContext, McpFoundTool, McpRouter, McpRouterOptions, McpSearchResult } from './adapters/mcp.ts';
export { createMcpRouter } from './adapters/mcp.ts';
export type {
  AgentCatalogueOptions,
  AgentMcp,
  AgentMcpTool,
  McpCatalogue,
  McpCatalogueOptions,
  McpClient,
  McpTool,
} from './adapters/mcp-catalogue.ts';
export { createAgentMcpCatalogue, createMcpCatalogue } from './adapters/mcp-catalogue.ts';
