// tool-search-layer/gemini: the layer for Google's Gemini API (`@google/genai`).

export type { ToolCallDisplay } from '../common/display.ts';
export { displayToolCall } from '../common/display.ts';
export type { GroupOf } from '../common/options.ts';
export type { ExecuteTool, ToolExecution } from '../common/provider-tools.ts';
export type { AnswerGeminiFunctionCallOptions } from './answer.ts';
export { answerGeminiFunctionCall } from './answer.ts';
export { geminiContentsToMessages } from './contents.ts';
export type { GeminiExposure, GeminiOptions, GeminiRequest } from './request.ts';
export { prepareGeminiRequest } from './request.ts';
export type { GeminiSchema } from './schema.ts';
export { GEMINI_NAME, geminiSchema } from './schema.ts';
