// The search_tools meta-tool: its definition, its untrusted arguments, and the result the model reads.
import { jsonSafe } from '../base/limits.ts';
import { SEARCH_TOOL_NAME } from '../base/names.ts';
import type { JsonSchema, Tool } from '../base/types.ts';
import type { Texts } from './texts.ts';

export { SEARCH_TOOL_NAME } from '../base/names.ts';

/** One tool as a search returns it: the full definition the model needs to call it. */
export interface FoundTool {
  readonly name: string;
  readonly description: string;
  /**
   * The full schema, without its `$schema` keyword; in compact results (`searchResults: 'compact'`) a one-line summary
   * such as `city: string, days?: integer`. Absent when the tool has none (or one JSON cannot carry).
   */
  readonly parameters?: JsonSchema | string;
  /**
   * The session already holds this tool's whole definition (an earlier search result still in the history the host
   * passed to `prepare`, or the tools block): `parameters` is left out rather than sent again.
   */
  readonly shown?: true;
}

/**
 * What `search` returns for valid arguments; JSON.stringify it for the model. Without a `limit` from the model, a
 * first page holds at most `maxSearchResults` tools and fewer when the ranking is confident (CONFIDENT_CUT).
 */
export interface SearchResult {
  /** Size of the whole result set. */
  readonly found: number;
  readonly tools: readonly FoundTool[];
  /** Present only when this page is not the whole result set. */
  readonly pagination?: {
    readonly offset: number;
    readonly limit: number;
    readonly total: number;
    readonly nextOffset: number | null;
  };
  /**
   * Other visible tools sharing a group with a returned tool, not found yet (at most 10); left out when there are
   * none (SPEC 14), so an empty list costs nothing.
   */
  readonly related?: readonly string[];
  readonly hint: string;
}

/** What `search` returns for arguments it cannot use: what went wrong and how to call correctly. */
export interface SearchErrorResult {
  readonly error: string;
  readonly hint: string;
}

/** Most names in `related`: enough to hint at a group's neighbours without paying for a second names list. */
export const MAX_RELATED = 10;

/** Builds the search tool's definition; `names` is the names list, if shown; `semantic`: a ranker hook is configured. */
export function searchToolDefinition(texts: Texts, names: string | undefined, semantic = false): Tool {
  return {
    name: SEARCH_TOOL_NAME,
    description: names ? `${texts.description}\n\n${names}` : texts.description,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: semantic ? texts.queryParamSemantic : texts.queryParam },
        limit: { type: 'integer', minimum: 1, description: texts.limitParam },
        offset: { type: 'integer', minimum: 0, description: texts.offsetParam },
      },
      required: ['query'],
      additionalProperties: false,
    },
  };
}

const withoutDialect = new WeakMap<JsonSchema, JsonSchema>();

/** A schema as results carry it: its `$schema` (a dialect URL, nothing the model acts on) left out, copied once. */
function schemaForModel(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  let copy = withoutDialect.get(schema);
  if (!copy) {
    const { $schema: _dialect, ...rest } = schema;
    copy = rest;
    withoutDialect.set(schema, copy);
  }
  return copy;
}

/** A tool as search results carry it: name, description and the parameter schema, nothing that means nothing. */
export function toFoundTool(tool: Tool): FoundTool {
  const parameters = jsonSafe(tool.parameters ?? null);
  return {
    name: tool.name,
    description: typeof tool.description === 'string' ? tool.description : '',
    ...(parameters !== null && typeof parameters === 'object' && { parameters: schemaForModel(parameters) }),
  };
}
