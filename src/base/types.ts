/** A JSON Schema object, as a tool's `parameters` carries it; the layer never rewrites it. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as the host registers it; extra fields survive untouched because the layer returns the caller's own objects. */
export interface Tool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly parameters?: JsonSchema | null | undefined;
  readonly groups?: readonly string[] | undefined;
  /**
   * Extra search text from the host (synonyms, brand names, the words its users use), indexed like the description
   * and never sent to the model; a single string is read as one entry.
   */
  readonly keywords?: readonly string[] | string | undefined;
  readonly [extra: string]: unknown;
}

/** One tool call an assistant message made. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments?: string | undefined;
}

/** A provider-neutral chat message; adapters convert OpenAI, Anthropic, AI SDK and MCP shapes to this. */
export interface Message {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content?: string | null | undefined;
  readonly toolCalls?: readonly ToolCall[] | undefined;
  readonly toolCallId?: string | undefined;
}

/** Where the layer writes warnings, and optionally debug lines. */
export interface Logger {
  warn(message: string): void;
  debug?(message: string): void;
}
