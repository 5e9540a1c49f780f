// tool-search-layer/mcp: one catalogue over many MCP servers, and the layer routing the model's calls to them.

export type { McpContext, McpFoundTool, McpRouter, McpRouterOptions, McpSearchResult } from './adapters/mcp.ts';
export { createMcpRouter } from './adapters/mcp.ts';
export type { AgentCatalogueOptions, AgentMcp, AgentMcpTool } from './adapters/mcp-agent.ts';
export { createAgentMcpCatalogue } from './adapters/mcp-agent.ts';
export type { McpCatalogue, McpCatalogueOptions, McpTool } from './adapters/mcp-catalogue.ts';
export type { McpClient } from './adapters/mcp-clients.ts';
export { createMcpCatalogue } from './adapters/mcp-clients.ts';
