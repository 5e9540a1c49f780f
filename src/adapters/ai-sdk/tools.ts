// Tools between the layer's shape ({ name, description, parameters, groups }) and AI SDK tool sets.
import { type Tool as AiTool, asSchema, jsonSchema, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { JsonSchema, Tool } from '../../base/types.ts';

/** An AI SDK tool's JSON Schema (zod, standard schema or `jsonSchema`), or null when it has none. */
export async function jsonSchemaOf(tool: { readonly inputSchema?: unknown }): Promise<JsonSchema | null> {
  return ((await asSchema(tool.inputSchema as never).jsonSchema) as JsonSchema | undefined) ?? null;
}

/**
 * An AI SDK tool set in the layer's shape: each key a name, zod and standard schemas as JSON Schema.
 * A description that is a function is called without context.
 */
export async function toLayerTools(
  tools: ToolSet,
  groups?: { readonly [name: string]: readonly string[] },
): Promise<Tool[]> {
  return Promise.all(
    Object.entries(tools).map(async ([name, tool]) => {
      let description: unknown = tool.description;
      if (typeof description === 'function') description = description({ context: undefined });
      const toolGroups = groups?.[name];
      return {
        name,
        description: typeof description === 'string' ? description : '',
        parameters: await jsonSchemaOf(tool),
        ...(toolGroups && { groups: toolGroups }),
      };
    }),
  );
}

/** Runs a tool by name; the layer-shaped tools have no `execute` of their own. */
export type ExecuteByName = (name: string, input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

/**
 * Layer-shaped tools (an MCP catalogue's, your own) as an AI SDK tool set, with each tool's groups, ready for
 * `withToolSearch(layer, { sessionId, ...fromLayerTools(tools, execute) })`.
 */
export function fromLayerTools(
  tools: readonly Tool[],
  execute: ExecuteByName,
): { tools: ToolSet; groups: Record<string, readonly string[]> } {
  const set: ToolSet = {};
  const groups: Record<string, readonly string[]> = {};
  for (const tool of tools) {
    set[tool.name] = {
      description: typeof tool.description === 'string' ? tool.description : '',
      // No validation here: the tool's own server or code validates, as it would for any caller.
      inputSchema: jsonSchema((tool.parameters ?? { type: 'object', properties: {} }) as never),
      execute: (input: unknown, options: ToolExecutionOptions<unknown>) => execute(tool.name, input, options),
    } as AiTool;
    if (tool.groups) groups[tool.name] = tool.groups;
  }
  return { tools: set, groups };
}
