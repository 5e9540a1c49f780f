// The LangChain.js entry: `tool-search-layer/langchain`, a middleware for `createAgent` (langchain 1.x).

export type { ToolCallDisplay } from '../common/display.ts';
export { displayToolCall } from '../common/display.ts';
export type { LangChainMessageLike } from './messages.ts';
export { type RunInfo, type ToolSearchMiddlewareOptions, toolSearchMiddleware } from './middleware.ts';
export type { LangChainToolLike } from './tools.ts';
