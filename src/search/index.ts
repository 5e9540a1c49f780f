// The tool index and its ranking: what search_tools runs on.
export type { ToolIndex } from './build.ts';
export { getToolIndex } from './cache.ts';
export { asKeyword, type RankOptions, type RankResult, rankTools } from './rank.ts';
export { loadIndex, serializeIndex } from './serialize.ts';
