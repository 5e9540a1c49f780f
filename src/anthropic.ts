// tool-search-layer/anthropic: the layer for Anthropic's Messages API.

export type { AnswerAnthropicToolUseOptions, AnthropicMessagesBody, AnthropicOptions } from './adapters/anthropic.ts';
export { answerAnthropicToolUse, prepareAnthropicMessages } from './adapters/anthropic.ts';
export {
  anthropicMessagesToMessages,
  anthropicToolsToTools,
  messagesToAnthropicMessages,
  toolToAnthropicTool,
} from './adapters/anthropic-messages.ts';
export type { ExecuteTool, GroupOf, ToolExecution } from './adapters/provider-tools.ts';
