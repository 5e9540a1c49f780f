// tool-search-layer/ai-sdk: tool search for generateText, streamText and agents of the `ai` package (v7).

export type { ToolSearchSettings, WithToolSearchOptions } from './adapters/ai-sdk.ts';
export { withToolSearch } from './adapters/ai-sdk.ts';
export { toLayerMessages } from './adapters/ai-sdk-messages.ts';
export type { ExecuteByName } from './adapters/ai-sdk-tools.ts';
export { fromLayerTools, toLayerTools } from './adapters/ai-sdk-tools.ts';
