// The layer-shaped catalogue of an AI SDK tool set, built per step: schemas converted once, dynamic descriptions per step.
import type { Tool as AiTool } from 'ai';
import type { JsonSchema, Logger, Tool } from '../../base/types.ts';
import { jsonSchemaOf } from './tools.ts';

/** An AI SDK tool as the adapter reads it: the fields the SDK types keep behind unions. */
export type AnyTool = AiTool & {
  readonly type?: string;
  readonly deferLoading?: boolean;
  readonly strict?: boolean;
  readonly providerOptions?: Record<string, Record<string, unknown> | undefined>;
  readonly description?: string | ((options: { context: unknown; experimental_sandbox?: unknown }) => string);
  readonly execute?: (input: unknown, options: { toolCallId: string }) => unknown;
  readonly toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
  readonly needsApproval?: boolean | ((input: unknown, options: unknown) => boolean | PromiseLike<boolean>);
};

/** The catalogue of one withToolSearch: each step's tools, and the latest built. */
export interface StepCatalogue {
  /** The layer-shaped tools of a step (the same array every step when no description is a function). */
  build(context?: Record<string, unknown>, sandbox?: unknown): Promise<readonly Tool[]>;
  /** The tools of the latest step, or of a first build when no step ran yet. */
  latest(): Promise<readonly Tool[]>;
  /** A tool's JSON Schema, converted once. */
  schemaOf(name: string): Promise<JsonSchema | null>;
}

/** Builds the layer-shaped catalogue of `searchable` (name, AI SDK tool) with each tool's groups. */
export function createStepCatalogue(
  searchable: readonly (readonly [string, AnyTool])[],
  groups: { readonly [name: string]: readonly string[] } | undefined,
  logger: Logger,
): StepCatalogue {
  const byName = new Map(searchable);
  const schemas = new Map<string, Promise<JsonSchema | null>>();
  const schemaOf = (name: string): Promise<JsonSchema | null> => {
    let schema = schemas.get(name);
    if (!schema) {
      schema = Promise.resolve()
        .then(() => jsonSchemaOf(byName.get(name) ?? {}))
        .catch((error: unknown) => {
          logger.warn(`[tool-search-layer] ai-sdk: the input schema of "${name}" has no JSON Schema: ${error}`);
          return null;
        });
      schemas.set(name, schema);
    }
    return schema;
  };
  const hasDynamic = searchable.some(([, tool]) => typeof tool.description === 'function');
  let fixed: Promise<Tool[]> | undefined;
  let latest: readonly Tool[] | undefined;

  const descriptionOf = (tool: AnyTool, context: unknown, sandbox: unknown): string => {
    let description = tool.description;
    if (typeof description === 'function') {
      try {
        description = description({ context, experimental_sandbox: sandbox });
      } catch {
        description = undefined;
      }
    }
    return typeof description === 'string' ? description : '';
  };

  async function build(context?: Record<string, unknown>, sandbox?: unknown): Promise<readonly Tool[]> {
    const make = () =>
      Promise.all(
        searchable.map(async ([name, tool]): Promise<Tool> => {
          const toolGroups = groups?.[name];
          return {
            name,
            description: descriptionOf(tool, context?.[name], sandbox),
            parameters: await schemaOf(name),
            ...(toolGroups && { groups: toolGroups }),
          };
        }),
      );
    // The same array every step keeps the layer's index and search tool cached by identity.
    if (!hasDynamic) fixed ??= make();
    const tools = await (fixed ?? make());
    latest = tools;
    return tools;
  }

  return { build, latest: async () => latest ?? (await build()), schemaOf };
}
