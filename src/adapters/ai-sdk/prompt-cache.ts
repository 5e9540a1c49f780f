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

/** Whether the caller placed a breakpoint of their own, on a message, one of its parts, or a tool. */
function callerCaches(messages: readonly ModelMessage[], tools: Iterable<unknown>): boolean {
  for (const message of messages) {
    if (marks(message)) return true;
    if (Array.isArray(message.content) && message.content.some(marks)) return true;
  }
  for (const tool of tools) if (marks(tool)) return true;
  return false;
}

/**
 * The step's provider options that turn Anthropic's prompt cache on, or undefined: for a model of another provider,
 * with `promptCache: false`, or when the caller places breakpoints of their own (they manage the cache, and the API
 * takes four at most). A top-level `cacheControl` the caller set in `providerOptions` is merged over this one.
 */
export function promptCacheOptions(
  enabled: boolean,
  model: unknown,
  messages: readonly ModelMessage[],
  tools: Iterable<unknown>,
): { anthropic: { cacheControl: { type: 'ephemeral' } } } | undefined {
  if (!enabled || nativeProviderOf(model) !== 'anthropic' || callerCaches(messages, tools)) return undefined;
  return { anthropic: { cacheControl: { type: 'ephemeral' } } };
}
