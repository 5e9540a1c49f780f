// tool-search-layer/ai-sdk: tool search for generateText, streamText and agents of the `ai` package (v7).

export type { ToolCallDisplay } from '../common/display.ts';
export { displayToolCall } from '../common/display.ts';
export type { EmbedWithOptions } from './embed-with.ts';
export { embedWith } from './embed-with.ts';
export { toLayerMessages } from './messages.ts';
export type { AiSdkExposure, LayerTools, ToolSearchSettings, WithToolSearchOptions } from './options.ts';
export type { RankWithOptions, ToolSearchRanker } from './rank-with.ts';
export { rankWith } from './rank-with.ts';
export type { ExecuteByName } from './tools.ts';
export { fromLayerTools, toLayerTools } from './tools.ts';
export { withToolSearch } from './with-tool-search.ts';
