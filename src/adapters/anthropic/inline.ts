// Inline mode: Anthropic's mid-conversation tool changes
// (https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages#mid-conversation-tool-changes).
// `tools` holds `search_tools` and the direct tools only, the same every round; each discovered tool's full
// definition is appended to the conversation in a `role: 'system'` message of `tool_addition` blocks, right after
// the tool results that found it. Positions follow from the history alone, so a caller that keeps its own history
// (without the added messages) gets the same bytes back every round, and one that keeps the request's messages too.

import type { AnthropicBeta } from '@anthropic-ai/sdk/resources/beta/beta';
import type {
  BetaMessageParam,
  BetaRequestToolAdditionBlock,
  BetaToolUnion,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { Tool as AnthropicTool, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Tool } from '../../base/types.ts';
import { NOT_CALLED } from '../../core/discovered.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import { type ConvertedTools, uniqueTools } from '../common/provider-tools.ts';
import type { AnthropicInlineBody, AnthropicMessagesBody } from './bodies.ts';
import type { AnthropicMessage } from './messages.ts';

/** The betas inline mode needs: mid-conversation tool changes, and definitions given inline. */
export const INLINE_BETAS = ['mid-conversation-tool-changes-2026-07-01', 'inline-tools-2026-09-15'] as const;

type Block = { readonly type?: string; readonly [key: string]: unknown };

const definitions = new WeakMap<object, BetaToolUnion>();

/** The definition a `tool_addition` carries: the caller's tool without `cache_control` or `defer_loading`, built once. */
function definition(tool: AnthropicTool): BetaToolUnion {
  let copy = definitions.get(tool);
  if (!copy) {
    const { cache_control: _breakpoint, defer_loading: _deferred, ...rest } = tool;
    copy = rest as BetaToolUnion;
    definitions.set(tool, copy);
  }
  return copy;
}

/** A `role: 'system'` message adding these tools by inline definition. */
function addition(tools: readonly AnthropicTool[]): BetaMessageParam {
  const content: BetaRequestToolAdditionBlock[] = tools.map((tool) => ({
    type: 'tool_addition',
    tool: { type: 'tool_definition', definition: definition(tool) },
  }));
  return { role: 'system', content };
}

const blocksOf = (message: AnthropicMessage): readonly Block[] =>
  (Array.isArray(message.content) ? message.content : []) as unknown as readonly Block[];

/** The names earlier `tool_addition` blocks already added (kept by a caller that sends back the request's messages). */
function addedNames(messages: readonly AnthropicMessage[]): Set<string> {
  const added = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'system') continue;
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_addition') continue;
      const tool = block.tool as { name?: unknown; definition?: { name?: unknown } } | undefined;
      const name = tool?.definition?.name ?? tool?.name;
      if (typeof name === 'string') added.add(name);
    }
  }
  return added;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block: Block) => (block?.type === 'text' ? String(block.text ?? '') : '')).join('');
}

/**
 * The tools a search result (or a corrective result with the definition) in this tool result showed the model.
 * A corrective result counts only as the layer writes it (an error naming the tool that was called), so a tool's own
 * output can never make the layer add a tool.
 */
function shownIn(block: Block, calledName: string | undefined): string[] {
  const text = textOf(block.content);
  const corrective = block.is_error === true && text.startsWith(`${NOT_CALLED}${JSON.stringify(calledName ?? '')},`);
  if (calledName !== SEARCH_TOOL_NAME && !corrective) return [];
  try {
    const tools = (JSON.parse(text) as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return [];
    return tools.map((tool: { name?: unknown }) => tool?.name).filter((n): n is string => typeof n === 'string');
  } catch {
    return [];
  }
}

/**
 * The messages with a `tool_addition` message after each user turn whose tool results showed tools not yet added,
 * then one at the end for discovered tools the history does not show (found in an earlier session of the store).
 * `definitionOf` gives the caller's tool for a name the layer may add (not the search tool, not a direct tool).
 */
export function inlineMessages(
  messages: readonly AnthropicMessage[],
  definitionOf: (name: string) => AnthropicTool | undefined,
  discovered: readonly string[],
): AnthropicMessage[] {
  const added = addedNames(messages);
  const called = new Map<string, string>();
  const out: AnthropicMessage[] = [];
  const add = (names: Iterable<string>): void => {
    const tools: AnthropicTool[] = [];
    for (const name of names) {
      const tool = added.has(name) ? undefined : definitionOf(name);
      if (!tool) continue;
      added.add(name);
      tools.push(tool);
    }
    if (tools.length > 0) out.push(addition(tools) as AnthropicMessage);
  };
  for (const message of messages) {
    out.push(message);
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      for (const block of blocks) if (block.type === 'tool_use') called.set(String(block.id), String(block.name));
    } else if (message.role === 'user') {
      const results = blocks.filter((block) => block.type === 'tool_result');
      add(results.flatMap((block) => shownIn(block, called.get(String(block.tool_use_id)))));
    }
  }
  // Never between an assistant's tool_use and its result: only after a user (or system) turn.
  if (out.length > 0 && out[out.length - 1]?.role !== 'assistant') add(discovered);
  return out;
}

/** The body of an 'inline' round: `search_tools` and the direct tools, the additions, and the betas they need. */
export function inlineBody<B extends AnthropicMessagesBody>(
  body: B,
  converted: ConvertedTools<ToolUnion>,
  prepared: readonly Tool[],
  layer: { readonly direct: readonly string[]; readonly original: (tool: Tool) => ToolUnion },
): AnthropicInlineBody<B> {
  const direct = new Set(layer.direct);
  const shown = prepared.filter((tool, i) => i === 0 || direct.has(tool.name));
  const found = prepared.filter((tool) => !shown.includes(tool)).map((tool) => tool.name);
  // Any catalogue tool a result showed, visible or not this round: an addition made once stays where it was.
  let byName: Map<string, Tool> | undefined;
  const definitionOf = (name: string) => {
    byName ??= new Map([...converted.tools].reverse().map((tool) => [tool.name, tool]));
    const tool = direct.has(name) ? undefined : byName.get(name);
    return tool && (layer.original(tool) as AnthropicTool);
  };
  const betas = [...new Set([...((body as { betas?: readonly AnthropicBeta[] }).betas ?? []), ...INLINE_BETAS])];
  return {
    ...body,
    tools: uniqueTools([...shown.map(layer.original), ...converted.passthrough], (tool) =>
      'name' in tool ? tool.name : undefined,
    ),
    messages: inlineMessages(body.messages, definitionOf, found) as BetaMessageParam[],
    betas,
  };
}
