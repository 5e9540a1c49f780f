// The public face of tool-search-layer.

export { ToolSearchError } from './base/errors.ts';
export { CALL_TOOL_NAME } from './base/names.ts';
export type { JsonSchema, Logger, Message, Tool, ToolCall } from './base/types.ts';
export type { CallCheck, CheckCallOptions, UndiscoveredCallMode, UndiscoveredCallResult } from './core/calls.ts';
export type { DiscoveredRecord } from './core/discovered.ts';
export { RECORD_VERSION } from './core/discovered.ts';
export type { DiscoverSource, EventListener, ToolSearchEvent } from './core/events.ts';
export { isUndiscoveredResult } from './core/not-called.ts';
export type { FoundTool, SearchErrorResult, SearchResult } from './core/search-tool.ts';
export { MAX_RELATED, SEARCH_TOOL_NAME } from './core/search-tool.ts';
export type { DiscoveredView, SessionControl } from './core/sessions.ts';
export type { Texts } from './core/texts.ts';
export { locales } from './core/texts.ts';
export type { CallRefusal, CallToolResult } from './exposure/call-tool.ts';
export type { CompactFoundTool, CompactSearchResult } from './exposure/compact.ts';
export type { Exposure, ExposureContext, SearchResultsMode } from './exposure/mode.ts';
export type { BridgeTexts } from './exposure/texts.ts';
export type { PrepareInput, PrepareResult, SearchContext, ToolSearch } from './layer/create-tool-search.ts';
export { createToolSearch } from './layer/create-tool-search.ts';
export type { ResolvedOptions, ToolSearchOptions } from './layer/options.ts';
export type { LearnedCredit } from './learn/learner.ts';
export type { LearnOptions, ResolvedLearn } from './learn/options.ts';
export type { Embed, ResolvedSemantic, SemanticOptions } from './semantic/options.ts';
export { EMBED_BATCH, MAX_TOOL_VECTORS } from './semantic/options.ts';
export type { MemoryStoreOptions } from './stores/memory.ts';
export { createMemoryStore } from './stores/memory.ts';
export type { DiscoveredStore, RecordUpdate, SharedSpace } from './stores/store.ts';
