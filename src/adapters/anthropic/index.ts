// tool-search-layer/anthropic: the layer for Anthropic's Messages API.

export type { ToolCallDisplay } from '../common/display.ts';
export { displayToolCall } from '../common/display.ts';
export type { GroupOf } from '../common/options.ts';
export type { ExecuteTool, ToolExecution } from '../common/provider-tools.ts';
export type { AnswerAnthropicToolUseOptions } from './answer.ts';
export { answerAnthropicToolUse } from './answer.ts';
export type { AnthropicInlineBody, AnthropicMessagesBody } from './bodies.ts';
export { INLINE_BETAS } from './inline.ts';
export type { AnthropicMessage } from './messages.ts';
export {
  anthropicMessagesToMessages,
  anthropicToolsToTools,
  messagesToAnthropicMessages,
  toolToAnthropicTool,
} from './messages.ts';
export type { AnthropicExposure, AnthropicOptions } from './prepare.ts';
export { prepareAnthropicMessages } from './prepare.ts';
