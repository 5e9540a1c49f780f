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

type Schema = { readonly [key: string]: unknown };

/** A placeholder of a schema's type: the first enum value, else the type's plain example. */
function example(schema: Schema | undefined): unknown {
  if (!schema) return 'example';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') return exampleArguments(schema);
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return anyOf?.[0] ? example(anyOf[0]) : 'example';
}

/**
 * Arguments a model might send: each required property with a placeholder of its type, so the bridge's
 * validation accepts the simulated call as it would a real one.
 */
export function exampleArguments(schema: Schema | null | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((key) => [key, example(properties[key])]));
}
