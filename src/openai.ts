// tool-search-layer/openai: the layer for OpenAI's Chat Completions and Responses APIs.

export type {
  AnswerChatToolCallOptions,
  ChatCompletionBody,
  PrepareChatCompletionOptions,
} from './adapters/openai-chat.ts';
export {
  answerChatToolCall,
  chatMessagesToMessages,
  chatToolsToTools,
  messagesToChatMessages,
  prepareChatCompletion,
  toolToChatTool,
} from './adapters/openai-chat.ts';
export type { DescribeGroup } from './adapters/openai-native.ts';
export type {
  AnswerResponseToolCallOptions,
  ResponsesBody,
  ResponsesOptions,
  ResponsesToolCallItem,
} from './adapters/openai-responses.ts';
export { answerResponseToolCall, prepareResponse } from './adapters/openai-responses.ts';
export {
  messagesToResponsesInput,
  responsesInputToMessages,
  responsesToolsToTools,
  toolToResponsesTool,
} from './adapters/openai-responses-items.ts';
export type { ExecuteTool, GroupOf, ToolExecution } from './adapters/provider-tools.ts';
export { strictSearchParameters } from './adapters/provider-tools.ts';
