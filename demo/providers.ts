// What one round sends, as each provider's own request body, made by the provider adapters themselves: the
// history and the catalogue are converted with the adapters' exported functions, then the adapter's prepare
// function puts the round's tools in. Also the comparison with the last round's body, part by part.
import type { FunctionDeclaration } from '@google/genai';
import type { Message, Tool, ToolSearch } from 'tool-search-layer';
import {
  messagesToAnthropicMessages,
  prepareAnthropicMessages,
  toolToAnthropicTool,
} from 'tool-search-layer/anthropic';
import { prepareGeminiRequest } from 'tool-search-layer/gemini';
import {
  messagesToChatMessages,
  messagesToResponsesInput,
  prepareChatCompletion,
  prepareResponse,
  toolToChatTool,
  toolToResponsesTool,
} from 'tool-search-layer/openai';
import { messagesToGeminiContents } from './gemini-contents.ts';

/** The request shapes the page shows. */
export type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** How the tools reach the model: `native` is the provider's own deferred loading, `inline` Anthropic's tool additions. */
export type Mode = 'tools' | 'bridge' | 'native' | 'inline';

/** Each provider with its label and the modes its adapter may offer; `detectModes` keeps those it does. */
export const PROVIDERS: Record<
  Provider,
  { readonly label: string; modes: readonly Mode[]; readonly defaultMode: Mode }
> = {
  // Each adapter's own default: the page starts where a user of that adapter starts.
  'openai-chat': { label: 'OpenAI Chat Completions', modes: ['tools', 'bridge'], defaultMode: 'bridge' },
  'openai-responses': { label: 'OpenAI Responses', modes: ['tools', 'bridge', 'native'], defaultMode: 'bridge' },
  anthropic: { label: 'Anthropic Messages', modes: ['tools', 'bridge', 'native', 'inline'], defaultMode: 'native' },
  // Gemini has no deferred loading of its own, so its adapter offers the two core modes.
  gemini: { label: 'Gemini generateContent', modes: ['tools', 'bridge'], defaultMode: 'bridge' },
};

/** The model name written into the bodies: any name does, the page never sends these. */
const MODEL = {
  'openai-chat': 'gpt-5',
  'openai-responses': 'gpt-5',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-3-flash',
} as const;

/** What a round's body is made from. */
export interface RoundInput {
  readonly layer: ToolSearch;
  readonly sessionId: string;
  readonly tools: readonly Tool[];
  readonly enabledGroups: readonly string[] | undefined;
  readonly messages: readonly Message[];
  readonly system: string;
}

// Provider tool objects made once per layer tool, so every round hands the adapter the same objects (its
// conversion cache and the byte-identical prefix both depend on that).
const chatTools = new WeakMap<readonly Tool[], unknown[]>();
const responsesTools = new WeakMap<readonly Tool[], unknown[]>();
const anthropicTools = new WeakMap<readonly Tool[], unknown[]>();
const geminiDeclarations = new WeakMap<readonly Tool[], unknown[]>();

/** A layer tool as a Gemini declaration; the adapter sends its own copy in Gemini's schema subset. */
const toDeclaration = (tool: Tool): FunctionDeclaration => ({
  name: tool.name,
  ...(tool.description !== undefined && { description: tool.description }),
  parametersJsonSchema: tool.parameters ?? { type: 'object', properties: {} },
});

function memo(cache: WeakMap<readonly Tool[], unknown[]>, tools: readonly Tool[], make: (t: Tool) => unknown) {
  let made = cache.get(tools);
  if (!made) {
    made = tools.map(make);
    cache.set(tools, made);
  }
  return made as never;
}

/** Groups by name, which provider tool objects have no field for. */
function groupOf(tools: readonly Tool[]): (name: string) => readonly string[] | undefined {
  const byName = new Map(tools.map((tool) => [tool.name, tool.groups]));
  return (name) => byName.get(name);
}

/** The adapter's options for a mode: the exposure, passed per call as every adapter takes it. */
function modeOptions(input: RoundInput, mode: Mode) {
  return {
    sessionId: input.sessionId,
    enabledGroups: input.enabledGroups,
    groupOf: groupOf(input.tools),
    exposure: mode,
    // Each adapter types its own modes; the page passes whichever the visitor chose, and detectModes drops the
    // ones an adapter does not offer.
  } as unknown as { sessionId: string };
}

/** The body the provider's adapter makes for this round in this mode. */
export async function requestBody(provider: Provider, mode: Mode, input: RoundInput): Promise<Record<string, unknown>> {
  const options = modeOptions(input, mode);
  if (provider === 'openai-chat') {
    const messages = [{ role: 'system' as const, content: input.system }, ...messagesToChatMessages(input.messages)];
    const tools = memo(chatTools, input.tools, (tool) => toolToChatTool(tool));
    return { ...(await prepareChatCompletion(input.layer, { model: MODEL[provider], tools, messages }, options)) };
  }
  if (provider === 'openai-responses') {
    const tools = memo(responsesTools, input.tools, (tool) => toolToResponsesTool(tool));
    const body = {
      model: MODEL[provider],
      instructions: input.system,
      tools,
      input: messagesToResponsesInput(input.messages),
    };
    return { ...(await prepareResponse(input.layer, body, options)) };
  }
  if (provider === 'gemini') {
    const functionDeclarations: FunctionDeclaration[] = memo(geminiDeclarations, input.tools, toDeclaration);
    const config = { systemInstruction: input.system, tools: [{ functionDeclarations }] };
    const params = { model: MODEL[provider], contents: messagesToGeminiContents(input.messages), config };
    return { ...(await prepareGeminiRequest(input.layer, params, options)) };
  }
  const tools = memo(anthropicTools, input.tools, (tool) => toolToAnthropicTool(tool));
  const { messages } = messagesToAnthropicMessages(input.messages);
  const body = { model: MODEL[provider], max_tokens: 1024, system: input.system, tools, messages };
  return { ...(await prepareAnthropicMessages(input.layer, body, options)) };
}

/**
 * The order a provider's prompt cache reads a body in: a change here invalidates everything after it. Gemini's
 * parameters hold the tools and the system instruction in `config`, which the client sends at the top level.
 */
const CACHE_ORDER: Record<Provider, readonly string[]> = {
  'openai-chat': ['tools', 'messages'],
  'openai-responses': ['tools', 'instructions', 'input'],
  anthropic: ['tools', 'system', 'messages'],
  gemini: ['config.tools', 'config.systemInstruction', 'contents'],
};

/** A body's fields by path: the top-level ones, with the fields of Gemini's `config` as `config.<name>`. */
function fieldsOf(body: Record<string, unknown>): Map<string, unknown> {
  return new Map(
    Object.entries(body).flatMap(([key, value]): [string, unknown][] =>
      key === 'config' && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value).map(([inner, field]): [string, unknown] => [`config.${inner}`, field])
        : [[key, value]],
    ),
  );
}

/** One part of a body (a tool, a message, a scalar field) and how it compares with the last round's body. */
export interface BodyPart {
  readonly path: string;
  readonly json: string;
  readonly status: 'same' | 'changed' | 'new';
}

/** A body split into its parts in cache order, each compared with the same part of the last round's body. */
export interface BodyDiff {
  readonly parts: readonly BodyPart[];
  /** Parts of the last round's body that this one no longer has. */
  readonly removed: readonly string[];
  /** Characters at the start of the cache-ordered body that equal the last round's. */
  readonly samePrefix: number;
  /** Characters of the last round's cache-ordered body; the prefix held when samePrefix equals it. */
  readonly previousLength: number;
}

function partsOf(provider: Provider, body: Record<string, unknown>): BodyPart[] {
  const fields = fieldsOf(body);
  const keys = [...CACHE_ORDER[provider], ...[...fields.keys()].filter((k) => !CACHE_ORDER[provider].includes(k))];
  return keys.flatMap((key) => {
    const value = fields.get(key);
    if (value === undefined) return [];
    if (!Array.isArray(value)) return [{ path: key, json: JSON.stringify(value), status: 'same' as const }];
    return value.map((item, i) => ({ path: `${key}[${i}]`, json: JSON.stringify(item), status: 'same' as const }));
  });
}

/** The cache-ordered text of a body, one part a line: what a prompt cache compares, prefix first. */
export function cacheText(provider: Provider, body: Record<string, unknown>): string {
  const cached = new Set(CACHE_ORDER[provider]);
  return partsOf(provider, body)
    .filter((part) => cached.has(part.path.replace(/\[\d+\]$/, '')))
    .map((part) => `${part.json}\n`)
    .join('');
}

/** Compares a body with the last round's (same provider and mode); without one, every part is new. */
export function diffBodies(
  provider: Provider,
  body: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
): BodyDiff {
  const before = new Map((previous ? partsOf(provider, previous) : []).map((part) => [part.path, part.json]));
  const parts = partsOf(provider, body).map((part) => {
    const old = before.get(part.path);
    before.delete(part.path);
    return { ...part, status: old === undefined ? 'new' : old === part.json ? 'same' : 'changed' } as BodyPart;
  });
  const now = cacheText(provider, body);
  const then = previous ? cacheText(provider, previous) : '';
  let same = 0;
  while (same < then.length && same < now.length && now.charCodeAt(same) === then.charCodeAt(same)) same++;
  return { parts, removed: [...before.keys()], samePrefix: same, previousLength: then.length };
}
