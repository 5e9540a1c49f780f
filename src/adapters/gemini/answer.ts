// Gemini: the answer to one `functionCall` part, as the `functionResponse` part to send back. Every call but
// `search_tools` goes through `layer.callTool`, so a direct call of a found tool is checked as `call_tool` is.
import type { FunctionCall, FunctionDeclaration, Part, ToolUnion } from '@google/genai';
import { ToolSearchError } from '../../base/errors.ts';
import { CALL_TOOL_NAME } from '../../base/names.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { ToolSearch } from '../../layer/create-tool-search.ts';
import type { ExecuteTool } from '../common/provider-tools.ts';
import { coreContext, type GeminiOptions } from './request.ts';
import { geminiTools } from './tools.ts';

/** Options of `answerGeminiFunctionCall`: those of `prepareGeminiRequest`, plus the catalogue and the executor. */
export interface AnswerGeminiFunctionCallOptions extends GeminiOptions {
  /** The round's `config.tools`, as passed to `prepareGeminiRequest`: the catalogue is read from it. */
  readonly tools: readonly ToolUnion[] | undefined;
  /** Runs a tool the model may call, with its arguments unchanged; never called for a call that may not run. */
  readonly execute: ExecuteTool<FunctionDeclaration>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Gemini takes only an object as `response`: an object result as it is, anything else as `{ output }`. */
const responseOf = (value: unknown): Record<string, unknown> => (isObject(value) ? value : { output: value ?? null });

/**
 * Answers a `functionCall` (or a Part holding one) with the `functionResponse` part to send back, echoing its
 * `id` and `name`: `search_tools` with the search result; `call_tool` by running the tool it names; a call of a
 * found tool by name by running it, its arguments checked as `call_tool` checks them. A call that may not run
 * (a wrong or unfound name, arguments that are not an object or do not fit the schema) gets the corrective
 * result, and nothing runs. Model input never throws.
 */
export async function answerGeminiFunctionCall(
  layer: ToolSearch,
  call: Part | FunctionCall,
  options: AnswerGeminiFunctionCallOptions,
): Promise<Part> {
  const functionCall = (isObject((call as Part).functionCall) ? (call as Part).functionCall : call) as FunctionCall;
  const name = typeof functionCall.name === 'string' ? functionCall.name : '';
  const args = functionCall.args;
  const split = geminiTools(options.tools, options.groupOf);
  const context = coreContext(options, split.tools);
  let response: Record<string, unknown>;
  if (name === SEARCH_TOOL_NAME) {
    response = responseOf(await layer.search(context, args ?? {}));
  } else {
    const own = split.tools.some((tool) => tool.name === name);
    const bridged = name === CALL_TOOL_NAME && !own;
    const input = bridged ? (args ?? {}) : { name, arguments: args ?? {} };
    const onUndiscoveredCall = options.onUndiscoveredCall;
    const checked = await layer.callTool(context, input, onUndiscoveredCall ? { onUndiscoveredCall } : undefined);
    if (!checked.ok) response = responseOf(checked.result);
    else {
      const tool = split.original(checked.tool);
      if (tool === undefined) {
        throw new ToolSearchError(
          `gemini: "${checked.name}" is not among options.tools; pass the round's config.tools`,
        );
      }
      response = responseOf(await options.execute({ name: checked.name, arguments: checked.arguments, tool }));
    }
  }
  return {
    functionResponse: {
      ...(typeof functionCall.id === 'string' && { id: functionCall.id }),
      name: functionCall.name ?? name,
      response,
    },
  };
}
