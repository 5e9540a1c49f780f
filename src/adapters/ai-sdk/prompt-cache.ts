// Anthropic caches a prompt only when the request asks (SPEC 14), and @ai-sdk/anthropic sends a top-level
// `cache_control` (automatic caching: a breakpoint on the last cacheable block) for the step's
// `providerOptions.anthropic.cacheControl`. Every exposure keeps each step's prefix for the next, so the step asks.
import type { ModelMessage } from 'ai';
import { nativeProviderOf } from './native.ts';

/** Provider options of a part or message, as far as a breakpoint goes. */
type WithOptions = { readonly providerOptions?: { readonly anthropic?: Record<string, unknown> } };

const marks = (value: unknown): boolean => {
  const anthropic = (value as WithOptions | undefined)?.providerOptions?.anthropic;
  return Boolean(anthropic?.cacheControl ?? anthropic?.cache_control);
};

/** Whether any of the caller's tools carries a breakpoint: asked once per withToolSearch, as its tools are fixed. */
export function toolsMarkBreakpoints(tools: Iterable<unknown>): boolean {
  for (const tool of tools) if (marks(tool)) return true;
  return false;
}

/** Whether the caller placed a breakpoint of their own on a message or one of its parts. */
function messagesMarkBreakpoints(messages: readonly ModelMessage[]): boolean {
  return messages.some((message) => marks(message) || (Array.isArray(message.content) && message.content.some(marks)));
}

/**
 * The step's provider options that turn Anthropic's prompt cache on, or undefined: when not `enabled` (the option is
 * false, or the caller's tools carry breakpoints), for a model of another provider, or when the caller's messages
 * carry breakpoints (they manage the cache, and the API takes four at most). A top-level `cacheControl` the caller
 * set in `providerOptions` is merged over this one.
 */
export function promptCacheOptions(
  enabled: boolean,
  model: unknown,
  messages: readonly ModelMessage[],
): { anthropic: { cacheControl: { type: 'ephemeral' } } } | undefined {
  if (!enabled || nativeProviderOf(model) !== 'anthropic' || messagesMarkBreakpoints(messages)) return undefined;
  return { anthropic: { cacheControl: { type: 'ephemeral' } } };
}
