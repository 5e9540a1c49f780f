// `config.tools` for the layer: each function declaration is a layer tool; every other tool kind (googleSearch,
// codeExecution, urlContext, an `mcpToTool()` object) passes through, and nothing of the caller's is mutated.
import type { FunctionDeclaration, Schema, Tool, ToolUnion } from '@google/genai';
import type { Tool as LayerTool } from '../../base/types.ts';
import type { GroupOf } from '../common/options.ts';
import { type ConvertedTools, layerTool, toolConverter } from '../common/provider-tools.ts';
import { GEMINI_NAME, geminiSchema } from './schema.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An `mcpToTool()` object (a `CallableTool`): the SDK lists and calls its tools itself. */
export const isCallableTool = (tool: ToolUnion): boolean =>
  typeof (tool as { tool?: unknown }).tool === 'function' &&
  typeof (tool as { callTool?: unknown }).callTool === 'function';

/**
 * The JSON Schema of a `parameters` given in Gemini's OpenAPI subset (`type: 'OBJECT'`, `nullable`): types in
 * lower case, `nullable: true` as a type that admits null. A new object; the caller's is read, never changed.
 */
export function openApiToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiToJsonSchema);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openApiToJsonSchema(sub)]));
    } else if (key === 'items' || key === 'anyOf') out[key] = openApiToJsonSchema(value);
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string' && out.type !== 'type_unspecified')
    out.type = [out.type, 'null'];
  return out;
}

/** The layer's parameters for a declaration: `parametersJsonSchema` as it is, else `parameters` read as JSON Schema. */
function parametersOf(declaration: FunctionDeclaration): unknown {
  if (declaration.parametersJsonSchema !== undefined) return declaration.parametersJsonSchema;
  if (declaration.parameters !== undefined) return openApiToJsonSchema(declaration.parameters as Schema);
  return undefined;
}

/** Converts declarations for the layer, once per declaration object. */
export const convertDeclarations: ReturnType<typeof toolConverter<FunctionDeclaration>> =
  toolConverter<FunctionDeclaration>((declaration, groupsOf) => {
    const name = typeof declaration.name === 'string' ? declaration.name : '';
    return layerTool(name, declaration.description, parametersOf(declaration), groupsOf(name));
  });

/** The caller's `config.tools` split: the declarations (as layer tools) and the other tools, in order. */
export interface GeminiTools extends ConvertedTools<FunctionDeclaration> {
  /** Every tool that is not a function declaration: built-in tools, `mcpToTool()` objects, as the caller gave them. */
  readonly others: ToolUnion[];
}

// A tool holding declarations and a built-in tool at once keeps its other fields in one copy made once.
const rest = new WeakMap<Tool, Tool | null>();

function withoutDeclarations(tool: Tool): Tool | null {
  let copy = rest.get(tool);
  if (copy === undefined) {
    const { functionDeclarations: _, ...others } = tool;
    copy = Object.keys(others).length > 0 ? others : null;
    rest.set(tool, copy);
  }
  return copy;
}

/** Reads `config.tools`: function declarations for the layer, every other tool passed through. */
export function geminiTools(tools: readonly ToolUnion[] | undefined, groupOf?: GroupOf): GeminiTools {
  const declarations: FunctionDeclaration[] = [];
  const others: ToolUnion[] = [];
  for (const tool of tools ?? []) {
    if (!isObject(tool)) continue;
    if (isCallableTool(tool)) {
      others.push(tool);
      continue;
    }
    const plain = tool as Tool;
    if (!Array.isArray(plain.functionDeclarations)) {
      others.push(plain);
      continue;
    }
    for (const declaration of plain.functionDeclarations) if (isObject(declaration)) declarations.push(declaration);
    const other = withoutDeclarations(plain);
    if (other) others.push(other);
  }
  return { ...convertDeclarations(declarations, groupOf), others };
}

// The declaration sent for a layer tool: built once per tool object, so each round sends the same bytes.
const sent = new WeakMap<LayerTool, FunctionDeclaration | null>();
const warned = new WeakSet<LayerTool>();

/**
 * The declaration Gemini gets for a layer tool: its name, description and `parametersJsonSchema` (never
 * `parameters`, which the SDK rewrites in place), or null when Gemini cannot take it, with a warning once.
 */
export function toDeclaration(tool: LayerTool, warn: (message: string) => void): FunctionDeclaration | null {
  let declaration = sent.get(tool);
  if (declaration === undefined) {
    declaration = null;
    const converted = geminiSchema(tool.parameters);
    let why: string | undefined;
    if (!GEMINI_NAME.test(tool.name))
      why = 'its name breaks Gemini\'s rule (a letter or "_" first, then letters, digits, "_.:-", 128 at most)';
    else if ('refused' in converted) why = converted.refused;
    if (why === undefined && 'schema' in converted) {
      declaration = {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parametersJsonSchema: converted.schema,
      };
      if (converted.changes.length > 0 && !warned.has(tool)) {
        warned.add(tool);
        warn(
          `gemini: the schema of "${tool.name}" is sent converted (${converted.changes.join('; ')}); arguments are still checked against the original`,
        );
      }
    } else if (!warned.has(tool)) {
      warned.add(tool);
      warn(`gemini: "${tool.name}" is not sent as a declaration: ${why}`);
    }
    sent.set(tool, declaration);
  }
  return declaration;
}
