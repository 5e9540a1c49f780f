// Prices a sequence of requests under one provider's cache rules: what was written, read, and paid in full.
import type { CacheRules } from './rules.ts';

/** One request of a session as the cache sees it. */
export interface PricedRequest {
  /** Input tokens of the whole request (tools, system and messages). */
  readonly tokens: number;
  /** Tokens at the start of this request identical to the start of the previous one (0 for the first). */
  readonly sharedTokens: number;
  /** Tokens the model wrote back. */
  readonly outputTokens?: number;
}

/** How to price: the provider's rules and what the session's model and settings change in them. */
export interface PriceOptions {
  readonly rules: CacheRules;
  /** The shortest cacheable prefix for the session's model. */
  readonly minCacheable: number;
  /** Anthropic's cache lifetime; the others ignore it. Default '5m'. */
  readonly ttl?: '5m' | '1h';
  /** Overrides the rules' read multiplier (an older model's discount). */
  readonly readMultiplier?: number;
  /** Overrides the rules' output multiplier (another model's prices). */
  readonly outputMultiplier?: number;
}

/** A session's price in token-equivalents at the base input price, with its parts. */
export interface SessionPrice {
  /** The whole session: input at its multipliers plus output at the output multiplier. */
  readonly cost: number;
  /** Input tokens written to the cache. */
  readonly written: number;
  /** Input tokens read from the cache. */
  readonly read: number;
  /** Input tokens paid in full and not cached (under the minimum length). */
  readonly uncached: number;
  /** Output tokens. */
  readonly output: number;
  /** How many requests the session made. */
  readonly requests: number;
}

/** The longest cacheable length within `tokens`: at least the minimum, in the provider's steps. */
function cacheableWithin(tokens: number, min: number, step: number): number {
  if (tokens < min) return 0;
  return min + Math.floor((tokens - min) / step) * step;
}

/** Prices requests in order, each reading what the previous ones left in the cache. */
export function priceRequests(requests: readonly PricedRequest[], options: PriceOptions): SessionPrice {
  const { rules, minCacheable: min } = options;
  const writeRate = rules.writeMultiplier[options.ttl ?? '5m'];
  const readRate = options.readMultiplier ?? rules.readMultiplier;
  const outputRate = options.outputMultiplier ?? rules.outputMultiplier;
  let written = 0;
  let read = 0;
  let uncached = 0;
  let output = 0;
  // Anthropic-style caches hold the last request's prompt whole (a breakpoint at its end) and serve it only
  // when the new request starts with all of it; automatic caches serve any prefix they have seen.
  let cached = 0;
  for (const request of requests) {
    const hit = rules.partialReads
      ? cacheableWithin(Math.min(request.sharedTokens, cached), min, rules.step)
      : cached > 0 && request.sharedTokens >= cached
        ? cached
        : 0;
    read += hit;
    if (request.tokens >= min) {
      written += request.tokens - hit;
      cached = request.tokens;
    } else {
      uncached += request.tokens - hit;
      cached = 0;
    }
    output += request.outputTokens ?? 0;
  }
  const cost = written * writeRate + read * readRate + uncached + output * outputRate;
  return { cost, written, read, uncached, output, requests: requests.length };
}
