// The request bodies the Anthropic helpers take and return (their own file, so the modes can share them).
import type { AnthropicBeta } from '@anthropic-ai/sdk/resources/beta/beta';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import type { AnthropicMessage } from './messages.ts';

/** The part of a `messages.create` body the layer reads and rewrites. */
export interface AnthropicMessagesBody {
  readonly messages: readonly AnthropicMessage[];
  readonly system?: string | readonly TextBlockParam[] | undefined;
  readonly tools?: readonly ToolUnion[] | undefined;
}

/** The body inline mode returns: beta messages (`tool_addition` blocks) and the betas they need. */
export type AnthropicInlineBody<B> = Omit<B, 'messages' | 'betas'> & {
  messages: BetaMessageParam[];
  betas: AnthropicBeta[];
};
