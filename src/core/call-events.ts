// Why a bridged call was refused, for the `call-refused` event (checkCall's own refusals announce themselves).

import { CALL_TOOL_NAME, SEARCH_TOOL_NAME } from '../base/names.ts';
import type { Tool } from '../base/types.ts';
import type { CallCheck } from './calls.ts';
import { catalogueOf } from './catalogue.ts';

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/**
 * The reason of a `callTool` refusal that checkCall did not make: 'invalid-arguments' (the tool's schema rejected
 * them), 'malformed' (no `{ name, arguments }` object), 'self' (call_tool asked to run the layer's own tools) or
 * 'unavailable' (a discovered tool this round does not carry).
 */
export function refusalReason(
  name: string,
  checked: CallCheck | undefined,
  input: unknown,
  tools: readonly Tool[],
): string {
  if (checked?.ok) return 'invalid-arguments';
  if (name === SEARCH_TOOL_NAME || name === CALL_TOOL_NAME) return 'self';
  const call = parsed(input) as { arguments?: unknown } | undefined;
  const args = isObject(call) ? call?.arguments : undefined;
  if (name === '' || !isObject(call) || (args != null && !isObject(parsed(args)))) return 'malformed';
  return catalogueOf(tools).byName.has(name) ? 'malformed' : 'unavailable';
}
