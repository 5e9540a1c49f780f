// Calls of tools the model has not been shown: the answer it gets instead of a blind execution.

import { cut, MAX_CALLED_NAME, MAX_SPELLING } from '../base/limits.ts';
import type { Tool } from '../base/types.ts';
import { rankTools } from '../search/index.ts';
import type { Catalogue } from './catalogue.ts';
import { type FoundTool, toFoundTool } from './search-tool.ts';
import { format, type Texts } from './texts.ts';

/** 'hint': tell the model to search first; 'discover': show it the tool's definition and ask it to call again. */
export type UndiscoveredCallMode = 'hint' | 'discover';

/**
 * What the model gets instead of a tool's output when it called a tool it has not been shown. Send it as the
 * tool result with `JSON.stringify`: `notCalled` comes first, so the history never counts it as a use.
 */
export interface UndiscoveredCallResult {
  /** The name the model called. */
  readonly notCalled: string;
  readonly error: string;
  readonly hint: string;
  /** 'discover' mode: the tool's full definition, as a search returns it. */
  readonly tools?: readonly FoundTool[];
  /** A name no visible tool has: up to three close names. */
  readonly closest?: readonly string[];
}

/** Whether a tool call may run: `ok`, or the result to answer it with instead. */
export type CallCheck = { readonly ok: true } | { readonly ok: false; readonly result: UndiscoveredCallResult };

/** Options of `checkCall`. */
export interface CheckCallOptions {
  /** What to answer a call of a tool the model never discovered. Default 'hint'. */
  readonly onUndiscoveredCall?: UndiscoveredCallMode | undefined;
}

const CLOSEST = 3;

/** The answer to a call of a visible tool the model has not discovered. */
export function undiscoveredResult(tool: Tool, mode: UndiscoveredCallMode, texts: Texts): UndiscoveredCallResult {
  const { name } = tool;
  const error = format(texts.notDiscoveredError, { name });
  if (mode === 'discover') {
    return { notCalled: name, error, hint: format(texts.discoveredNowHint, { name }), tools: [toFoundTool(tool)] };
  }
  const query = name.replace(/[_\-.]+/g, ' ').trim();
  return { notCalled: name, error, hint: format(texts.notDiscoveredHint, { name, query }) };
}

/** The answer to a call of a name no visible tool has: the closest visible names, never an invisible one. */
export function unknownToolResult(
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  called: string,
  texts: Texts,
): UndiscoveredCallResult {
  // The name is model output of any length: it is read, matched and echoed only up to a bound.
  const name = cut(called, MAX_CALLED_NAME);
  const closest = closestNames(catalogue, visible, name);
  const hint =
    closest.length > 0 ? format(texts.unknownToolHint, { names: closest.join(', ') }) : texts.unknownToolHintNone;
  return { notCalled: name, error: format(texts.unknownToolError, { name }), hint, closest };
}

/** Names sharing words with the called name first (the search ranking), then the nearest spellings. */
function closestNames(catalogue: Catalogue, visible: (id: number) => boolean, name: string): string[] {
  const words = name.replace(/[_\-.]+/g, ' ');
  const names = new Set(rankTools(catalogue.index, words, { visible, take: CLOSEST }).ids.map(nameAt(catalogue)));
  if (names.size < CLOSEST) {
    const wanted = cut(name, MAX_SPELLING).toLowerCase();
    const most = Math.max(2, Math.floor(wanted.length / 3));
    const near: { id: number; distance: number }[] = [];
    catalogue.tools.forEach((tool, id) => {
      const distance = visible(id) ? editDistance(wanted, tool.name.toLowerCase(), most) : most + 1;
      if (distance <= most) near.push({ id, distance });
    });
    near.sort((a, b) => a.distance - b.distance || a.id - b.id);
    for (const { id } of near) {
      if (names.size >= CLOSEST) break;
      names.add(nameAt(catalogue)(id));
    }
  }
  return [...names];
}

const nameAt = (catalogue: Catalogue) => (id: number) => (catalogue.tools[id] as Tool).name;

/** Levenshtein distance, two rows, or `most + 1` as soon as it must exceed `most` (length gap, or a whole row over). */
function editDistance(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      best = Math.min(best, current[j] as number);
    }
    if (best > most) return most + 1;
    previous = current;
  }
  return previous[b.length] as number;
}
