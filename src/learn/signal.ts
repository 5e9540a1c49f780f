// What a session's history teaches: each search, and the tools the model then called with a result.

import { bridgedName, CALL_TOOL_NAME } from '../base/names.ts';
import { parsedOnce } from '../base/parsed-results.ts';
import type { Message } from '../base/types.ts';
import { isUndiscoveredResult } from '../core/not-called.ts';

/** One search of a session and the distinct tools called after it, before the next search or user message. */
export interface LearnUnit {
  readonly query: string;
  readonly tools: readonly string[];
  /** The request it served: how many user messages came before it. */
  readonly turn: number;
}

const queries = parsedOnce((args: string): string | undefined => {
  try {
    const query = (JSON.parse(args) as { query?: unknown } | null)?.query;
    return typeof query === 'string' ? query : undefined;
  } catch {
    return undefined;
  }
});

interface Open {
  query: string;
  tools: Set<string>;
  turn: number;
}

/**
 * Reads the units of a history. A search counts once its call has a result; a tool counts once its call
 * (direct, or through `call_tool`) has a result that is not the layer's refusal. Only names in `known` count;
 * anything malformed is skipped. A user message ends a search's turn: what the model calls later may serve
 * another request.
 */
export function readUnits(
  messages: readonly Message[] | undefined,
  searchToolName: string,
  known: (name: string) => boolean,
): LearnUnit[] {
  if (!Array.isArray(messages)) return [];
  const calls = new Map<string, { name: string; query?: string | undefined }>();
  const units: Open[] = [];
  let current: Open | undefined;
  let turn = 0;
  for (const message of messages as readonly unknown[]) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, toolCalls, toolCallId, content } = message as Message;
    if (role === 'user') {
      current = undefined;
      turn++;
    } else if (role === 'assistant' && Array.isArray(toolCalls)) {
      for (const call of toolCalls as readonly unknown[]) {
        const { id, name, arguments: args } = (call ?? {}) as { id?: unknown; name?: unknown; arguments?: unknown };
        if (typeof id !== 'string' || id === '' || typeof name !== 'string') continue;
        if (name === searchToolName)
          calls.set(id, { name, query: typeof args === 'string' ? queries(args) : undefined });
        else {
          const used = name === CALL_TOOL_NAME ? bridgedName(args) : name;
          if (typeof used === 'string') calls.set(id, { name: used });
        }
      }
    } else if (role === 'tool' && typeof toolCallId === 'string') {
      const call = calls.get(toolCallId);
      if (call === undefined) continue;
      calls.delete(toolCallId);
      if (call.name === searchToolName) {
        current = call.query?.trim() ? { query: call.query, tools: new Set(), turn } : undefined;
        if (current) units.push(current);
      } else if (current && known(call.name) && !isUndiscoveredResult(content)) current.tools.add(call.name);
    }
  }
  return units
    .filter((unit) => unit.tools.size > 0)
    .map((unit) => ({ query: unit.query, tools: [...unit.tools], turn: unit.turn }));
}

/** Whether two lists of units hold the same searches, turns and tools, in the same order. */
export function sameUnits(a: readonly LearnUnit[], b: readonly LearnUnit[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] as LearnUnit, b[i] as LearnUnit];
    if (x.query !== y.query || x.turn !== y.turn || x.tools.length !== y.tools.length) return false;
    for (let j = 0; j < x.tools.length; j++) if (x.tools[j] !== y.tools[j]) return false;
  }
  return true;
}
