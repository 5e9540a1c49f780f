// tool-search-layer/openai: the layer for OpenAI's Chat Completions and Responses APIs.

export type { ToolCallDisplay } from '../common/display.ts';
export { displayToolCall } from '../common/display.ts';
export type { GroupOf } from '../common/options.ts';
export type { ExecuteTool, ToolExecution } from '../common/provider-tools.ts';
export { strictSearchParameters } from '../common/provider-tools.ts';
export type {
  AnswerChatToolCallOptions,
  ChatCompletionBody,
  ChatExposure,
  PrepareChatCompletionOptions,
} from './chat.ts';
export { answerChatToolCall, prepareChatCompletion } from './chat.ts';
export { chatMessagesToMessages, chatToolsToTools, messagesToChatMessages, toolToChatTool } from './chat-items.ts';
export type { DescribeGroup } from './native.ts';
export type { PreparedBody } from './prepared.ts';
export type {
  AnswerResponseToolCallOptions,
  ResponsesBody,
  ResponsesOptions,
  ResponsesToolCallItem,
} from './responses.ts';
export { answerResponseToolCall, prepareResponse } from './responses.ts';
export {
  messagesToResponsesInput,
  responsesInputToMessages,
  responsesToolsToTools,
  toolToResponsesTool,
} from './responses-items.ts';
