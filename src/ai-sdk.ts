// tool-search-layer/ai-sdk: tool search for generateText, streamText and agents of the `ai` package (v7).

export type { ToolSearchSettings, WithToolSearchOptions } from './adapters/ai-sdk.ts';
export { withToolSearch } from './adapters/ai-sdk.ts';
export { toLayerMessages } from './adapters/ai-sdk-messages.ts';
