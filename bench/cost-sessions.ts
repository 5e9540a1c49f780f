// Scripted sessions run through the real adapters in every mode: each request body is recorded, cut into the
// pieces the provider renders in order (tools, system, messages), counted with o200k, and priced by
// tool-search-layer/cost's priceRequests, so the estimator can be checked against what adapters really send.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Tool as AnthropicTool,
  ContentBlockParam,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { type Content, type FunctionDeclaration, GoogleGenAI, type Part } from '@google/genai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { createToolSearch, type Tool } from 'tool-search-layer';
import { answerAnthropicToolUse, prepareAnthropicMessages } from 'tool-search-layer/anthropic';
import {
  CACHE_RULES,
  type CostMode,
  minCacheableFor,
  type PricedRequest,
  type Provider,
  priceRequests,
} from 'tool-search-layer/cost';
import { answerGeminiFunctionCall, prepareGeminiRequest } from 'tool-search-layer/gemini';
import {
  answerChatToolCall,
  answerResponseToolCall,
  prepareChatCompletion,
  prepareResponse,
} from 'tool-search-layer/openai';
import type { BenchTool } from './data.ts';

/** A request as its provider renders it: the pieces in prefix order, and the reply's tokens. */
export interface Recorded {
  pieces: string[];
  outputTokens: number;
}

const memo = new Map<string, number>();
const tokens = (text: string): number => {
  let n = memo.get(text);
  if (n === undefined) {
    n = countTokens(text);
    if (memo.size > 50_000) memo.clear();
    memo.set(text, n);
  }
  return n;
};

/** Tokens of each request and of the start it shares with the one before (whole pieces, then the common start of the first that differs). */
export function pricedRequests(recorded: readonly Recorded[]): PricedRequest[] {
  return recorded.map((request, i) => {
    const total = request.pieces.reduce((sum, piece) => sum + tokens(piece), 0);
    const before = recorded[i - 1]?.pieces;
    let shared = 0;
    if (before) {
      let k = 0;
      while (k < before.length && k < request.pieces.length && before[k] === request.pieces[k]) {
        shared += tokens(request.pieces[k] as string);
        k++;
      }
      const [a, b] = [before[k], request.pieces[k]];
      if (a !== undefined && b !== undefined) {
        let c = 0;
        while (c < a.length && a[c] === b[c]) c++;
        if (c > 0) shared += tokens(a.slice(0, c));
      }
    }
    return { tokens: total, sharedTokens: shared, outputTokens: request.outputTokens };
  });
}

/** The session's script: the rounds, the rounds that search, and what each search is for. */
export interface SessionScript {
  turns: number;
  searchAt: ReadonlySet<number>;
  /** One per discovery: the query, and the tool the model then calls (the search's best hit). */
  finds: readonly { query: string; name: string }[];
  /** Per find: how many tools its search returns without a `limit` (fewer than 5 where the ranking is confident). */
  pages: readonly number[];
  /** The tools those searches return, in order. */
  returned: readonly Tool[];
}

/** Spreads the discoveries as the estimator does, and finds each query's best hit with the layer itself. */
export async function sessionScript(
  tools: readonly BenchTool[],
  queries: readonly string[],
  turns: number,
  discoveries: number,
): Promise<SessionScript> {
  const searchAt = new Set<number>();
  for (let i = 0; i < discoveries; i++) searchAt.add(Math.floor((i * turns) / discoveries));
  const layer = createToolSearch();
  const finds: { query: string; name: string }[] = [];
  for (const query of queries) {
    if (finds.length === discoveries) break;
    const result = await layer.search({ sessionId: 'script', tools }, { query, limit: 1 });
    const name = 'tools' in result ? result.tools[0]?.name : undefined;
    if (name && !finds.some((f) => f.name === name)) finds.push({ query, name });
  }
  const pages: number[] = [];
  const returned: Tool[] = [];
  for (const { query } of finds) {
    const page = await layer.search({ sessionId: 'pages', tools }, { query });
    const shown = 'tools' in page ? page.tools : [];
    pages.push(shown.length);
    returned.push(...(shown as readonly Tool[]));
  }
  if (finds.length < discoveries)
    throw new Error(`[bench] cost: only ${finds.length} distinct finds for ${discoveries}`);
  return { turns, searchAt, finds, pages, returned };
}

const USER_TEXT = (turn: number) =>
  `Round ${turn}: here is what I need next. Please check the details against what we already have, keep the earlier results in mind, and tell me when something does not add up.`;
const TOOL_OUTPUT = (name: string, turn: number) =>
  JSON.stringify({
    tool: name,
    round: turn,
    status: 'ok',
    items: Array.from({ length: 6 }, (_, i) => ({
      id: `${turn}-${i}`,
      title: `Result ${i} of round ${turn}`,
      score: 0.5 + i / 20,
    })),
  });

/** Minimal arguments a tool's schema accepts: its required properties with plain values of their types. */
export function argumentsFor(tool: Tool | undefined): Record<string, unknown> {
  const schema = (tool?.parameters ?? {}) as {
    properties?: Record<string, { type?: unknown; enum?: unknown[] }>;
    required?: string[];
  };
  const out: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const property = schema.properties?.[key] ?? {};
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    out[key] =
      property.enum?.[0] ??
      (type === 'integer' || type === 'number'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : 'x');
  }
  return out;
}

/** What the next model reply does: search, call a found tool (directly or through call_tool), or answer. */
type Step = { kind: 'search'; query: string } | { kind: 'call'; name: string; args: Record<string, unknown> };

/** The steps of the session: per round, a search first where one is due, then a call of the latest find. */
function* steps(
  script: SessionScript,
  tools: readonly Tool[],
  mode: CostMode,
): Generator<{ turn: number; step: Step; newTurn: boolean }> {
  let found = -1;
  for (let turn = 0; turn < script.turns; turn++) {
    // Without the layer every tool is in front of the model: it calls the one it needs, no search first.
    const searches = script.searchAt.has(turn);
    if (searches) found++;
    if (searches && mode !== 'none') {
      yield { turn, step: { kind: 'search', query: script.finds[found]?.query as string }, newTurn: true };
    }
    const name = script.finds[Math.max(0, found)]?.name as string;
    const tool = tools.find((t) => t.name === name);
    yield { turn, step: { kind: 'call', name, args: argumentsFor(tool) }, newTurn: !searches || mode === 'none' };
  }
}

export const SYSTEM =
  'You are a careful assistant. Use the tools you are given; search for a tool before you call one you have not seen.';

/** Runs the session through the Anthropic adapter and records each request. */
export async function anthropicSession(
  mode: CostMode,
  catalogue: readonly BenchTool[],
  script: SessionScript,
): Promise<Recorded[]> {
  const tools: AnthropicTool[] = catalogue.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    input_schema: (t.parameters ?? { type: 'object' }) as AnthropicTool['input_schema'],
  }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const layer = createToolSearch({ enabled: mode !== 'none' });
  const exposure = mode === 'none' ? 'tools' : mode;
  const options = {
    sessionId: `cost-${mode}`,
    exposure,
    tools,
    execute: ({ name }: { name: string }) => TOOL_OUTPUT(name, 0),
  };
  const messages: MessageParam[] = [];
  const recorded: Recorded[] = [];
  let id = 0;
  let pending: ContentBlockParam[] = [];
  for (const { turn, step, newTurn } of steps(script, catalogue as readonly Tool[], mode)) {
    if (newTurn) messages.push({ role: 'user', content: [...pending, { type: 'text', text: USER_TEXT(turn) }] });
    else if (pending.length) messages.push({ role: 'user', content: pending });
    pending = [];
    const body = await prepareAnthropicMessages(
      layer,
      { model: 'claude-sonnet-4-5', max_tokens: 1024, system: SYSTEM, messages, tools },
      options,
    );
    const name = step.kind === 'search' ? 'search_tools' : mode === 'bridge' ? 'call_tool' : step.name;
    const input =
      step.kind === 'search'
        ? { query: step.query }
        : mode === 'bridge'
          ? { name: step.name, arguments: step.args }
          : step.args;
    const use = { type: 'tool_use' as const, id: `toolu_${++id}`, name, input };
    const reply: ContentBlockParam[] = [{ type: 'text', text: 'Let me do that.' }, use];
    const sentTools = (body.tools ?? []) as (AnthropicTool & { defer_loading?: boolean })[];
    recorded.push({
      pieces: [
        ...sentTools.filter((t) => !t.defer_loading).map((t) => JSON.stringify(t)),
        SYSTEM,
        ...(body.messages as MessageParam[]).map((m) => renderAnthropic(m, byName)),
      ],
      outputTokens: tokens(JSON.stringify(reply)),
    });
    messages.push({ role: 'assistant', content: reply });
    pending = [await answerAnthropicToolUse(layer, use, options)];
  }
  return recorded;
}

/** A message as the model reads it: a tool_reference is expanded into the definition it loads. */
function renderAnthropic(message: MessageParam, byName: ReadonlyMap<string, AnthropicTool>): string {
  return JSON.stringify(message, (_key, value: { type?: string; tool_name?: string }) =>
    value && value.type === 'tool_reference' && value.tool_name ? (byName.get(value.tool_name) ?? value) : value,
  );
}

/** Runs the session through the Chat Completions adapter (none, tools, bridge) and records each request. */
export async function chatSession(
  mode: CostMode,
  catalogue: readonly BenchTool[],
  script: SessionScript,
): Promise<Recorded[]> {
  const tools: ChatCompletionTool[] = catalogue.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description ?? '',
      parameters: (t.parameters ?? { type: 'object' }) as Record<string, unknown>,
    },
  }));
  const layer = createToolSearch({ enabled: mode !== 'none' });
  const exposure = mode === 'bridge' ? 'bridge' : 'tools';
  const options = {
    sessionId: `cost-${mode}`,
    exposure,
    tools,
    execute: ({ name }: { name: string }) => TOOL_OUTPUT(name, 0),
  } as const;
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM }];
  const recorded: Recorded[] = [];
  let id = 0;
  for (const { turn, step, newTurn } of steps(script, catalogue as readonly Tool[], mode)) {
    if (newTurn) messages.push({ role: 'user', content: USER_TEXT(turn) });
    const body = await prepareChatCompletion(layer, { model: 'gpt-5', messages, tools }, options);
    const name = step.kind === 'search' ? 'search_tools' : mode === 'bridge' ? 'call_tool' : step.name;
    const args =
      step.kind === 'search'
        ? { query: step.query }
        : mode === 'bridge'
          ? { name: step.name, arguments: step.args }
          : step.args;
    const call = { id: `call_${++id}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
    const reply: ChatCompletionMessageParam = { role: 'assistant', content: 'Let me do that.', tool_calls: [call] };
    recorded.push({
      pieces: [...(body.tools ?? []).map((t) => JSON.stringify(t)), ...body.messages.map((m) => JSON.stringify(m))],
      outputTokens: tokens(JSON.stringify(reply)),
    });
    messages.push(reply, await answerChatToolCall(layer, call, options));
  }
  return recorded;
}

/**
 * Runs the session through the Gemini adapter and the real `@google/genai` client (none, tools, bridge), and
 * records each request body the client sends to a loopback stand-in for Gemini: its pieces in Gemini's prefix
 * order (the declarations, the other tools, the system instruction, then the contents).
 */
export async function geminiSession(
  mode: CostMode,
  catalogue: readonly BenchTool[],
  script: SessionScript,
): Promise<Recorded[]> {
  const declarations: FunctionDeclaration[] = catalogue.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parametersJsonSchema: t.parameters ?? { type: 'object', properties: {} },
  }));
  const tools = [{ functionDeclarations: declarations }];
  const bodies: Record<string, unknown>[] = [];
  let reply: Part[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: reply } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ai = new GoogleGenAI({ apiKey: 'bench', httpOptions: { baseUrl, apiVersion: 'v1beta' } });
  // Quiet: the adapter warns once per tool whose schema it converts (GitHub's `oneOf`), which is not news here.
  const layer = createToolSearch({ enabled: mode !== 'none', logger: { warn: () => {} } });
  const options = {
    sessionId: `cost-${mode}`,
    exposure: mode === 'bridge' ? ('bridge' as const) : ('tools' as const),
    tools,
    execute: ({ name }: { name: string }) => TOOL_OUTPUT(name, 0),
  };
  const contents: Content[] = [];
  const recorded: Recorded[] = [];
  let id = 0;
  let pending: Part[] = [];
  try {
    for (const { turn, step, newTurn } of steps(script, catalogue as readonly Tool[], mode)) {
      if (newTurn) contents.push({ role: 'user', parts: [...pending, { text: USER_TEXT(turn) }] });
      else if (pending.length) contents.push({ role: 'user', parts: pending });
      pending = [];
      const name = step.kind === 'search' ? 'search_tools' : mode === 'bridge' ? 'call_tool' : step.name;
      const args =
        step.kind === 'search'
          ? { query: step.query }
          : mode === 'bridge'
            ? { name: step.name, arguments: step.args }
            : step.args;
      reply = [{ text: 'Let me do that.' }, { functionCall: { id: `call_${++id}`, name, args } }];
      const params = { model: 'gemini-3-pro', contents, config: { systemInstruction: SYSTEM, tools } };
      const response = await ai.models.generateContent(await prepareGeminiRequest(layer, params, options));
      const body = bodies.at(-1) ?? {};
      const sent = (body.tools ?? []) as { functionDeclarations?: unknown[] }[];
      recorded.push({
        pieces: [
          ...sent.flatMap((t) => (t.functionDeclarations ?? [t]).map((d) => JSON.stringify(d))),
          JSON.stringify(body.systemInstruction ?? ''),
          ...((body.contents ?? []) as unknown[]).map((c) => JSON.stringify(c)),
        ],
        outputTokens: tokens(JSON.stringify(reply)),
      });
      const content = response.candidates?.[0]?.content ?? { role: 'model', parts: reply };
      contents.push(content);
      for (const part of content.parts ?? []) {
        if (part.functionCall) pending.push(await answerGeminiFunctionCall(layer, part, options));
      }
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return recorded;
}

/** Runs the session through the Responses adapter in native mode and records each request. */
export async function responsesNativeSession(
  catalogue: readonly BenchTool[],
  script: SessionScript,
): Promise<Recorded[]> {
  const tools = catalogue.map((t) => ({
    type: 'function' as const,
    name: t.name,
    description: t.description ?? '',
    parameters: (t.parameters ?? { type: 'object' }) as Record<string, unknown>,
    strict: false,
  }));
  const groupOf = (name: string) => catalogue.find((t) => t.name === name)?.groups;
  const layer = createToolSearch();
  const options = {
    sessionId: 'cost-native',
    exposure: 'native',
    tools,
    groupOf,
    execute: ({ name }: { name: string }) => TOOL_OUTPUT(name, 0),
  } as const;
  const input: ResponseInputItem[] = [];
  const recorded: Recorded[] = [];
  const namespaceOf = new Map<string, string>();
  let id = 0;
  for (const { turn, step, newTurn } of steps(script, catalogue as readonly Tool[], 'native')) {
    if (newTurn) input.push({ role: 'user', content: USER_TEXT(turn) });
    const body = await prepareResponse(layer, { model: 'gpt-5.4', instructions: SYSTEM, input, tools }, options);
    const item =
      step.kind === 'search'
        ? {
            type: 'tool_search_call' as const,
            call_id: `ts_${++id}`,
            execution: 'client' as const,
            arguments: { query: step.query },
            status: 'completed' as const,
          }
        : {
            type: 'function_call' as const,
            call_id: `fc_${++id}`,
            name: step.name,
            arguments: JSON.stringify(step.args),
            ...(namespaceOf.has(step.name) && { namespace: namespaceOf.get(step.name) }),
          };
    recorded.push({
      pieces: [
        ...(body.tools ?? []).map(renderResponsesTool).filter((p) => p !== ''),
        SYSTEM,
        ...input.map((m) => JSON.stringify(m)),
      ],
      outputTokens: tokens(JSON.stringify(item)),
    });
    const answer = await answerResponseToolCall(layer, item as never, options);
    for (const out of answer) {
      if (out.type !== 'tool_search_output') continue;
      for (const loaded of out.tools as { type: string; name: string; tools?: { name: string }[] }[]) {
        for (const member of loaded.tools ?? []) namespaceOf.set(member.name, loaded.name);
      }
    }
    input.push(item as ResponseInputItem, ...answer);
  }
  return recorded;
}

/**
 * A Responses tool as it enters the prompt: a deferred function shows its name and description only, a namespace
 * its own name and description and its members that are not deferred.
 */
function renderResponsesTool(tool: unknown): string {
  const t = tool as {
    type?: string;
    name?: string;
    description?: string;
    defer_loading?: boolean;
    tools?: { defer_loading?: boolean }[];
  };
  if (t.defer_loading) return JSON.stringify({ name: t.name, description: t.description });
  if (t.type === 'namespace') return JSON.stringify({ ...t, tools: (t.tools ?? []).filter((m) => !m.defer_loading) });
  return JSON.stringify(t);
}

/** Prices recorded requests under a provider's rules, as estimateSessionCost does its own. */
export function priceRecorded(provider: Provider, recorded: readonly Recorded[]) {
  const rules = CACHE_RULES[provider];
  return priceRequests(pricedRequests(recorded), { rules, minCacheable: minCacheableFor(rules, undefined) });
}
