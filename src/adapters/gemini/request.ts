// Gemini `generateContent` / `generateContentStream` / `chats.create`: the request helper. 'bridge' (the default)
// sends `search_tools` and `call_tool` only (with the direct tools), the same bytes every round, so Gemini's
// context cache, keyed on `config.tools`, holds all session; 'tools' adds each found tool, which changes them.
import type {
  ContentListUnion,
  ContentUnion,
  FunctionDeclaration,
  GenerateContentConfig,
  ToolUnion,
} from '@google/genai';
import { ToolSearchError } from '../../base/errors.ts';
import type { Tool } from '../../base/types.ts';
import type { SearchResultsMode } from '../../exposure/mode.ts';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import { type AdapterOptions, sessionContext } from '../common/options.ts';
import { uniqueTools } from '../common/provider-tools.ts';
import { checkToolLimit, GEMINI_TOOL_LIMIT } from '../common/tool-limit.ts';
import { geminiContentsToMessages } from './contents.ts';
import { geminiTools, isCallableTool, toDeclaration } from './tools.ts';

/** How Gemini sees the catalogue: 'bridge' (default, append-only) or 'tools' (see docs/gemini.md). */
export type GeminiExposure = 'bridge' | 'tools';

const EXPOSURES: readonly GeminiExposure[] = ['bridge', 'tools'];

/** Options shared by `prepareGeminiRequest` and `answerGeminiFunctionCall`: pass the same to both. */
export interface GeminiOptions extends AdapterOptions<GeminiExposure> {
  /**
   * 'bridge' (default): `search_tools`, `call_tool` and the direct tools, byte-identical all session.
   * 'tools': `search_tools`, the direct tools and the tools found so far, which grows at each discovery.
   */
  readonly exposure?: GeminiExposure | undefined;
  /** 'tools' mode only: search results without parameter schemas, which the next round's declarations carry. */
  readonly searchResults?: SearchResultsMode | undefined;
}

/** The part of `generateContent` parameters (or `chats.create` ones) the layer reads and rewrites. */
export interface GeminiRequest {
  readonly contents?: ContentListUnion | undefined;
  /** `chats.create` parameters carry the earlier turns here. */
  readonly history?: ContentListUnion | undefined;
  readonly config?: GenerateContentConfig | undefined;
}

/** The exposure of a call; throws on an unknown one (a programming error, not model input). */
export function exposureOf(options: GeminiOptions): GeminiExposure {
  const exposure = options.exposure ?? 'bridge';
  if (!EXPOSURES.includes(exposure)) {
    throw new ToolSearchError(
      `gemini: options.exposure must be "bridge" or "tools" (received ${JSON.stringify(options.exposure)})`,
    );
  }
  return exposure;
}

/** The core's context for a round of this session. */
export const coreContext = (options: GeminiOptions, tools: readonly Tool[]): SearchContext =>
  sessionContext(options, tools, exposureOf(options), options.searchResults);

// One tools entry per distinct list of declarations, so 'bridge' sends the very same object every round.
const entries = new WeakMap<
  FunctionDeclaration,
  { key: string; entry: { functionDeclarations: FunctionDeclaration[] } }
>();

function declarationsTool(declarations: FunctionDeclaration[]): { functionDeclarations: FunctionDeclaration[] } {
  const first = declarations[0] as FunctionDeclaration;
  const key = declarations.map((d) => d.name).join('\n');
  const cached = entries.get(first);
  if (cached?.key === key) return cached.entry;
  const entry = { functionDeclarations: declarations };
  entries.set(first, { key, entry });
  return entry;
}

/**
 * Returns the parameters to send this round, with `config.tools` holding the layer's declarations first, then
 * the caller's other tools (googleSearch, codeExecution, urlContext, `mcpToTool()` objects) as they were.
 * Declarations use `parametersJsonSchema`; a tool Gemini cannot take is converted or skipped with a warning.
 * With an `mcpToTool()` object beside the declarations, `automaticFunctionCalling` is disabled unless set:
 * the SDK refuses the mix otherwise. The caller's params, config and declarations are never mutated.
 * @example
 * const request = await prepareGeminiRequest(layer, { model, contents, config: { tools } }, { sessionId })
 * const response = await ai.models.generateContent(request)
 */
export async function prepareGeminiRequest<P extends GeminiRequest>(
  layer: ToolSearch,
  params: P,
  options: GeminiOptions,
): Promise<P & { config: GenerateContentConfig }> {
  const config = params.config;
  const split = geminiTools(config?.tools, options.groupOf);
  const prepared = await layer.prepare({
    ...coreContext(options, split.tools),
    messages: geminiContentsToMessages(params.contents ?? params.history, config?.systemInstruction as ContentUnion),
  });
  if (prepared.bypassed && config?.tools === undefined) return { ...params, config: { ...config } };
  const warn = (message: string) => layer.options.logger.warn(`[tool-search-layer] ${message}`);
  const declarations = uniqueTools(
    prepared.tools.flatMap((tool) => toDeclaration(tool, warn) ?? []),
    (declaration) => declaration.name,
  );
  checkToolLimit(layer, options.sessionId, GEMINI_TOOL_LIMIT, declarations.length);
  const tools: ToolUnion[] = [...(declarations.length > 0 ? [declarationsTool(declarations)] : []), ...split.others];
  const callable = split.others.some(isCallableTool) && declarations.length > 0;
  return {
    ...params,
    config: {
      ...config,
      tools,
      ...(callable &&
        config?.automaticFunctionCalling === undefined && { automaticFunctionCalling: { disable: true } }),
    },
  };
}
