// tool-search-layer/mcp: one catalogue over many MCP servers, and the layer routing the model's calls to them.

export type { AgentCatalogueOptions, AgentMcp, AgentMcpTool } from './agent.ts';
export { createAgentMcpCatalogue } from './agent.ts';
export type { McpCatalogue, McpCatalogueOptions, McpTool } from './catalogue.ts';
export { createMcpCatalogue } from './clients.ts';
export type { McpContext, McpFoundTool, McpRouter, McpRouterOptions, McpSearchResult } from './router.ts';
export { createMcpRouter } from './router.ts';
export type {
  McpCallToolResult,
  McpClient,
  McpContent,
  McpRequestOptions,
  McpToolAnnotations,
  McpToolDefinition,
} from './types.ts';
