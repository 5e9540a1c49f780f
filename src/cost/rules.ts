// Each provider's published prompt-cache rules, as the cost model reads them. Every figure cites its page.

/** A provider whose cache rules the cost model knows. */
export type Provider = 'anthropic' | 'openai' | 'gemini';

/** How one provider bills a request's input against its prompt cache. */
export interface CacheRules {
  readonly provider: Provider;
  /** Cache writes cost this times the base input price, per TTL (OpenAI and Gemini write for free). */
  readonly writeMultiplier: { readonly '5m': number; readonly '1h': number };
  /** Cache reads cost this times the base input price (the newest models' figure; override per model). */
  readonly readMultiplier: number;
  /** Output tokens cost this times the base input price (a mid-range model of the provider; override it). */
  readonly outputMultiplier: number;
  /** The shortest prefix the cache keeps, by model name prefix, first match wins; `*` is the fallback. */
  readonly minCacheable: readonly (readonly [model: string, tokens: number])[];
  /** Cached lengths past the minimum come in steps of this many tokens. */
  readonly step: number;
  /**
   * True when the cache serves the longest previously seen prefix on its own (OpenAI, Gemini). False when
   * reads happen only at cache breakpoints (Anthropic): a changed tools block then loses the whole cache.
   */
  readonly partialReads: boolean;
  /** The order the provider renders a request in: the prefix that must not change. */
  readonly prefixOrder: readonly ('tools' | 'system' | 'messages')[];
  /** The provider's own tool search keeps deferred tools out of the prefix (exposure 'native' exists). */
  readonly nativeDeferral: boolean;
  /** Where each rule above is published. */
  readonly sources: readonly string[];
}

/** The rules of each provider, read from their documentation on 2026-12-03. */
export const CACHE_RULES: Readonly<Record<Provider, CacheRules>> = {
  anthropic: {
    provider: 'anthropic',
    // 5-minute writes 1.25x, 1-hour writes 2x, reads 0.1x of the base input price.
    writeMultiplier: { '5m': 1.25, '1h': 2 },
    readMultiplier: 0.1,
    // Sonnet: $3 input, $15 output per million tokens.
    outputMultiplier: 5,
    minCacheable: [
      ['claude-opus-4-5', 4096],
      ['claude-opus-4-6', 4096],
      ['claude-opus-4-7', 4096],
      ['claude-haiku-4-5', 4096],
      ['claude-haiku-3', 2048],
      ['claude-3-haiku', 2048],
      ['claude-3-5-haiku', 2048],
      ['*', 1024],
    ],
    step: 1,
    partialReads: false,
    prefixOrder: ['tools', 'system', 'messages'],
    nativeDeferral: true,
    sources: [
      'https://platform.claude.com/docs/en/build-with-claude/prompt-caching (multipliers, minimum lengths, tools -> system -> messages)',
      'https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool (deferred tools are not loaded into the context until referenced)',
      'https://www.anthropic.com/pricing#api (input and output prices)',
    ],
  },
  openai: {
    provider: 'openai',
    // Automatic caching: no write surcharge; cached input at a tenth of the price on the GPT-5 family.
    writeMultiplier: { '5m': 1, '1h': 1 },
    readMultiplier: 0.1,
    // GPT-5: $1.25 input, $10 output per million tokens.
    outputMultiplier: 8,
    minCacheable: [['*', 1024]],
    step: 128,
    partialReads: true,
    prefixOrder: ['tools', 'system', 'messages'],
    nativeDeferral: true,
    sources: [
      'https://platform.openai.com/docs/guides/prompt-caching (automatic from 1,024 tokens in 128-token steps, no write cost, tools are part of the prefix)',
      'https://platform.openai.com/docs/pricing (cached input 0.1x on the GPT-5 family, 0.25x on GPT-4.1, 0.5x on GPT-4o)',
      'https://platform.openai.com/docs/guides/tools-tool-search (deferred functions stay out of the prefix; loaded ones are appended)',
    ],
  },
  gemini: {
    provider: 'gemini',
    // Implicit caching: no write surcharge, no storage cost; cached tokens at a tenth of the price.
    writeMultiplier: { '5m': 1, '1h': 1 },
    readMultiplier: 0.1,
    // Gemini 3 Pro: $2 input, $12 output per million tokens.
    outputMultiplier: 6,
    minCacheable: [
      ['gemini-2.5', 2048],
      ['*', 4096],
    ],
    step: 1,
    partialReads: true,
    prefixOrder: ['tools', 'system', 'messages'],
    nativeDeferral: false,
    sources: [
      'https://ai.google.dev/gemini-api/docs/caching (implicit caching, minimum 2,048 tokens on 2.5 models and 4,096 on newer ones)',
      'https://cloud.google.com/vertex-ai/generative-ai/docs/context-cache/context-cache-overview (implicit cache hits at a 90% discount, no storage cost)',
      'https://ai.google.dev/gemini-api/docs/pricing (input and output prices)',
    ],
  },
};

/** The shortest cacheable prefix for a model of a provider. */
export function minCacheableFor(rules: CacheRules, model: string | undefined): number {
  const name = (model ?? '').toLowerCase();
  for (const [prefix, tokens] of rules.minCacheable) {
    if (prefix === '*' || name.startsWith(prefix)) return tokens;
  }
  return 1024;
}
