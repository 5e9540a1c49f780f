// tool-search-layer/anthropic: the layer for Anthropic's Messages API.

export type { ExecuteTool, GroupOf, ToolExecution } from '../provider-tools.ts';
export {
  anthropicMessagesToMessages,
  anthropicToolsToTools,
  messagesToAnthropicMessages,
  toolToAnthropicTool,
} from './messages.ts';
export type { AnswerAnthropicToolUseOptions, AnthropicMessagesBody, AnthropicOptions } from './prepare.ts';
export { answerAnthropicToolUse, prepareAnthropicMessages } from './prepare.ts';
