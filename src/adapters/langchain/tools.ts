// LangChain tools as layer tools (their JSON Schema read once per tool object), and the bridge's meta-tools as
// LangChain tools, made once per definition so the tools offered are the same objects every model call.
import { tool as langchainTool } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { Tool } from '../../base/types.ts';
import type { GroupOf } from '../common/options.ts';
import { layerTool, toolConverter } from '../common/provider-tools.ts';

/** The parts of a LangChain tool the layer reads; any `StructuredTool` or `tool()` result fits. */
export interface LangChainToolLike {
  readonly name: string;
  readonly description?: string;
  readonly schema?: unknown;
}

function parametersOf(schema: unknown): unknown {
  if (schema === undefined || schema === null) return undefined;
  try {
    return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    return undefined;
  }
}

/** The host's LangChain tools as layer tools, same objects for the same tools. */
export const convertTools: (
  tools: readonly LangChainToolLike[] | undefined,
  groupOf?: GroupOf,
) => { tools: Tool[]; original: (tool: Tool) => LangChainToolLike | undefined } = toolConverter<LangChainToolLike>(
  (tool, groupsOf) =>
    typeof tool?.name === 'string' && tool.name !== ''
      ? layerTool(tool.name, tool.description, parametersOf(tool.schema), groupsOf(tool.name))
      : undefined,
);

const metaTools = new WeakMap<Tool, LangChainToolLike>();

/**
 * A layer definition (`search_tools`, `call_tool`) as a LangChain tool. The middleware answers its calls in
 * `wrapToolCall`; the function only runs if something invokes the tool outside the agent loop.
 */
export function metaTool(definition: Tool): LangChainToolLike {
  let made = metaTools.get(definition);
  if (!made) {
    made = langchainTool(
      async () => `${definition.name} is answered by the tool-search middleware inside createAgent`,
      {
        name: definition.name,
        description: definition.description ?? '',
        schema: (definition.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      },
    ) as unknown as LangChainToolLike;
    metaTools.set(definition, made);
  }
  return made;
}
