// The MCP shapes the adapter reads and returns, written out structurally so that the clients of both SDK majors
// (`@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client` 2.x) fit them, and so that neither SDK is
// imported, at run time or by the declaration files: an Agents app has only the v2 client, others only v1.

/** A tool's hints as its server sends them (`readOnlyHint`, `destructiveHint`, ...). */
export interface McpToolAnnotations {
  readonly title?: string | undefined;
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/** An MCP tool definition from `tools/list`, the fields the catalogue reads. */
export interface McpToolDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  readonly title?: string | undefined;
  readonly inputSchema?: { readonly [key: string]: unknown } | undefined;
  readonly annotations?: McpToolAnnotations | undefined;
}

/** Fields any content block may carry besides its own (`annotations`, `_meta`, and what a later SDK adds). */
type Extra = { readonly [key: string]: unknown };

/**
 * One content block of a tool result, a union discriminated by `type` as both SDK majors declare it, so that
 * `block.type === 'text'` makes `block.text` a string.
 */
export type McpContent =
  | ({ readonly type: 'text'; readonly text: string } & Extra)
  | ({ readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string } & Extra)
  | ({ readonly type: 'resource_link'; readonly uri: string; readonly name: string } & Extra)
  | ({
      readonly type: 'resource';
      readonly resource: { readonly uri: string; readonly text?: string; readonly blob?: string } & Extra;
    } & Extra);

/** An MCP `CallToolResult`: what a server's tool returned, or the router's answer for the model. */
export type McpCallToolResult = {
  readonly content: readonly McpContent[];
  /** An object in SDK 1.x; `unknown` in 2.x, which validates it against the tool's output schema. */
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
} & { readonly [key: string]: unknown };

/** Per-request options handed through to the client's `callTool` (`signal`, `timeout`, `onprogress`, ...). */
export type McpRequestOptions = {
  readonly signal?: AbortSignal | undefined;
  readonly timeout?: number | undefined;
} & { readonly [key: string]: unknown };

/**
 * A connected MCP client, as the catalogue uses it: a `Client` of `@modelcontextprotocol/sdk` 1.x or of
 * `@modelcontextprotocol/client` 2.x, over any transport, fits it.
 */
export interface McpClient {
  listTools(
    params?: { cursor?: string },
    options?: never,
  ): Promise<{ readonly tools: readonly McpToolDefinition[]; readonly nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: never[]): Promise<unknown>;
  setNotificationHandler?(...args: never[]): void;
  getServerVersion?(): { readonly name: string } | undefined;
}
