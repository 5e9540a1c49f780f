// The host's side of the conversation, as pure functions over plain messages: what a host appends
// after each tool call, and how it would serialise tools for OpenAI. No DOM here, so it reads like
// the loop in the README.
import type { Message, Tool } from 'tool-search-layer';

/** A fresh call id: ids only have to pair an assistant call with its tool message. */
function nextCallId(messages: readonly Message[]): string {
  const calls = messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
  return `call_${calls + 1}`;
}

/**
 * The history after the model called `name` with `args` and the host answered with `result`:
 * an assistant message with one tool call, then the paired `tool` message, as a host appends them.
 */
export function withToolCall(messages: readonly Message[], name: string, args: string, result: unknown): Message[] {
  const id = nextCallId(messages);
  return [
    ...messages,
    { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: args }] },
    { role: 'tool', toolCallId: id, content: JSON.stringify(result) },
  ];
}

/** What the playground answers for an ordinary tool: there is no real backend behind the catalogues. */
export function simulatedResult(name: string): unknown {
  return { ok: true, tool: name, note: 'simulated by the playground' };
}

/** The model round a prepare call is for: one more than the assistant turns so far. */
export function roundNumber(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === 'assistant').length + 1;
}

/** The search_tools arguments a model would send for these form fields; blank fields are left out. */
export function searchArgs(query: string, limit: string, offset: string): string {
  const args: Record<string, unknown> = { query };
  if (limit.trim() !== '') args.limit = Number(limit);
  if (offset.trim() !== '') args.offset = Number(offset);
  return JSON.stringify(args);
}

/** The tools as the OpenAI chat API takes them; token counts are measured on exactly this JSON. */
export function openAiToolsJson(tools: readonly Tool[]): string {
  return JSON.stringify(
    tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters ?? undefined },
    })),
  );
}
