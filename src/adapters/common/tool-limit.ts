// Providers refuse (or quietly degrade) a request with more tools than they take. The core never caps the
// discovered set (SPEC 12), so an adapter says so instead: one warning and one `tool-limit` event per layer.

import { eventSink } from '../../core/events.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';

/** A provider's tools-per-request limit, and how the warning words it. */
export interface ToolLimit {
  /** The adapter that warns, as the event's `provider`: 'openai', 'anthropic', 'gemini'. */
  readonly provider: string;
  /** The most tools the provider takes in one request. */
  readonly limit: number;
  /** The warning's text for a request of `count` tools, without the `[tool-search-layer] provider:` prefix. */
  readonly describe: (count: number) => string;
}

/** OpenAI Chat Completions and Responses: "A max of 128 functions are supported" (the API reference's `tools`). */
export const OPENAI_TOOL_LIMIT: ToolLimit = {
  provider: 'openai',
  limit: 128,
  describe: (count) =>
    `${count} function tools in one request; OpenAI takes at most 128 (the bridge sends two, with your direct tools)`,
};

/** Anthropic publishes no cap on a Messages request's tools, but tool search takes at most 10,000 tools in its catalogue. */
export const ANTHROPIC_SEARCH_LIMIT: ToolLimit = {
  provider: 'anthropic',
  limit: 10_000,
  describe: (count) =>
    `${count} tools in one request; Anthropic's tool search takes at most 10,000 in its catalogue (the bridge sends two, with your direct tools)`,
};

/** Gemini: about 100 function declarations per request, as reported (the API documents no figure). */
export const GEMINI_TOOL_LIMIT: ToolLimit = {
  provider: 'gemini',
  limit: 100,
  describe: (count) =>
    `${count} function declarations in one request; Gemini is reported to take about 100 (the bridge sends two)`,
};

const warned = new WeakMap<ToolSearch, Set<string>>();

/**
 * Warns through the layer's logger and emits a `tool-limit` event when a request would carry more tools than the
 * provider takes; once per layer and provider, since every later round of a growing session would repeat it.
 */
export function checkToolLimit(layer: ToolSearch, sessionId: string, limit: ToolLimit, count: number): void {
  if (count <= limit.limit) return;
  const providers = warned.get(layer) ?? new Set<string>();
  if (providers.has(limit.provider)) return;
  providers.add(limit.provider);
  warned.set(layer, providers);
  const warn = (message: string) => layer.options.logger.warn(`[tool-search-layer] ${message}`);
  warn(`${limit.provider}: ${limit.describe(count)}`);
  const emit = eventSink(layer.options.onEvent, warn);
  emit({ type: 'tool-limit', sessionId, provider: limit.provider, tools: count, limit: limit.limit });
}
