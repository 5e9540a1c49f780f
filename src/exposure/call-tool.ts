// layer.callTool: checks a bridged call (`call_tool { name, arguments }`) and says whether it may run, or
// what the model should be told instead. Model input never throws.

import { CALL_TOOL_NAME } from '../base/names.ts';
import type { Tool } from '../base/types.ts';
import type { CallCheck, UndiscoveredCallResult } from '../core/calls.ts';
import { catalogueOf } from '../core/catalogue.ts';
import type { DiscoveredRecord } from '../core/discovered.ts';
import { SEARCH_TOOL_NAME } from '../core/search-tool.ts';
import { format } from '../core/texts.ts';
import type { BridgeTexts } from './texts.ts';
import { checkArguments } from './validate-args.ts';

/** A corrective result for a bridged call; `notCalled` comes first, so history reading never counts it as a use. */
export interface CallRefusal {
  /** The name the model called through call_tool ('' when it gave none). */
  readonly notCalled: string;
  readonly error: string;
  readonly hint: string;
  readonly tools?: UndiscoveredCallResult['tools'];
  readonly closest?: readonly string[];
}

/** What `callTool` returns: run tool `name` with `arguments` (unchanged), or answer with `result`. */
export type CallToolResult =
  | {
      readonly ok: true;
      readonly name: string;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly tool: Tool;
    }
  | { readonly ok: false; readonly result: CallRefusal };

/** The parts of a layer a bridged call needs. */
export interface CallDeps {
  readonly texts: BridgeTexts;
  readonly checkCall: (name: string) => Promise<CallCheck>;
  readonly stored: () => Promise<DiscoveredRecord | undefined>;
  readonly warn: (message: string) => void;
}

type Parsed = { readonly name: string; readonly args: Record<string, unknown> } | { readonly refusal: CallRefusal };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Reads `{ name, arguments }` from an object or a JSON string; `arguments` may be a JSON string, or omitted ({}). */
function parseCall(input: unknown, texts: BridgeTexts): Parsed {
  const refuse = (name: string, reason: string): Parsed => ({
    refusal: { notCalled: name, error: format(texts.callArgsError, { reason }), hint: texts.callArgsHint },
  });
  const call = parseJson(input);
  if (!isObject(call)) return refuse('', texts.reasonCallNotObject);
  const { name } = call;
  if (typeof name !== 'string' || name.trim() === '') return refuse('', texts.reasonCallName);
  const args = call.arguments === undefined || call.arguments === null ? {} : parseJson(call.arguments);
  if (!isObject(args)) return refuse(name, texts.reasonCallArguments);
  return { name, args };
}

/** The answer to a bridged call (see `ToolSearch.callTool`). */
export async function callTool(
  deps: CallDeps,
  context: { readonly tools: readonly Tool[]; readonly enabledGroups?: readonly string[] | undefined },
  input: unknown,
): Promise<CallToolResult> {
  const { texts } = deps;
  const parsed = parseCall(input, texts);
  if ('refusal' in parsed) return { ok: false, result: parsed.refusal };
  const { name, args } = parsed;
  if (name === CALL_TOOL_NAME || name === SEARCH_TOOL_NAME) {
    const hint = name === SEARCH_TOOL_NAME ? texts.callSearchHint : texts.callSelfHint;
    return { ok: false, result: { notCalled: name, error: format(texts.callSelfError, { name }), hint } };
  }
  const catalogue = catalogueOf(context.tools);
  const id = catalogue.byName.get(name);
  if (id === undefined && (await deps.stored())?.order.includes(name)) {
    const error = format(texts.unavailableError, { name });
    return { ok: false, result: { notCalled: name, error, hint: texts.unavailableHint } };
  }
  // Unknown and invisible names get checkCall's one answer, so an invisible tool is never revealed.
  const check = await deps.checkCall(name);
  if (!check.ok) return { ok: false, result: check.result };
  const tool = catalogue.tools[id as number] as Tool;
  const verdict = checkArguments(tool.parameters, args);
  if (verdict.valid === false) {
    const error = format(texts.invalidArgsError, { name, problems: verdict.problems });
    return { ok: false, result: { notCalled: name, error, hint: format(texts.invalidArgsHint, { name }) } };
  }
  if (verdict.valid === 'refused') {
    if (verdict.first)
      deps.warn(
        `"${name}" was not called: its parameters use the pattern "${verdict.pattern}", which cannot be matched in linear time (lookaround or backreferences)`,
      );
    const error = format(texts.refusedArgsError, { name, pattern: verdict.pattern });
    return { ok: false, result: { notCalled: name, error, hint: format(texts.refusedArgsHint, { name }) } };
  }
  if (verdict.valid === 'unchecked' && verdict.first) {
    deps.warn(`the parameters of "${name}" cannot be checked (${verdict.reason}); the call runs unchecked`);
  }
  return { ok: true, name, arguments: args, tool };
}
