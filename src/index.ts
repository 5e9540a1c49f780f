// The public face of tool-search-layer.

export type { CallCheck, CheckCallOptions, UndiscoveredCallMode, UndiscoveredCallResult } from './calls.ts';
export { isUndiscoveredResult } from './calls.ts';
export type { PrepareInput, PrepareResult, SearchContext, ToolSearch } from './create-tool-search.ts';
export { createToolSearch } from './create-tool-search.ts';
export type { DiscoveredRecord } from './discovered.ts';
export { RECORD_VERSION } from './discovered.ts';
export { ToolSearchError } from './errors.ts';
export type { ResolvedOptions, ToolSearchOptions } from './options.ts';
export type { FoundTool, SearchErrorResult, SearchResult } from './search-tool.ts';
export { MAX_RELATED, SEARCH_TOOL_NAME } from './search-tool.ts';
export type { Embed, ResolvedSemantic, SemanticOptions } from './semantic.ts';
export { EMBED_BATCH, MAX_TOOL_VECTORS } from './semantic-cache.ts';
export type { DiscoveredStore, RecordUpdate } from './store.ts';
export type { MemoryStoreOptions } from './stores/memory.ts';
export { createMemoryStore } from './stores/memory.ts';
export type { Texts } from './texts.ts';
export { locales } from './texts.ts';
export type { JsonSchema, Logger, Message, Tool, ToolCall } from './types.ts';
