// The search result's `related` names, loaded as a chunk of its own: a catalogue without groups never needs it.

import type { Tool } from '../base/types.ts';
import type { Catalogue } from './catalogue.ts';

/**
 * Other visible tools of the returned tools' groups, best result's group first, never one the session already has
 * (`known`), at most `max` (MAX_RELATED, passed in so this chunk imports nothing). `matched` marks every tool the query matched, when the ranking marked them (the lexical one does).
 * The tools the query also matched come first; the rest follow only from groups small enough to be named whole, so
 * one large group (one MCP server) does not fill the list with names unrelated to the query. A ranking that marks
 * no matches (the semantic hook) keeps catalogue order.
 */
export function related(
  catalogue: Catalogue,
  ids: readonly number[],
  visible: (id: number) => boolean,
  matched: Uint8Array | undefined,
  known: readonly string[],
  max: number,
): string[] {
  const nameOf = (id: number) => (catalogue.tools[id] as Tool).name;
  const skip = new Set([...ids.map(nameOf), ...known]);
  const marked = matched?.includes(1) ? matched : undefined;
  const tiers: [string[], string[]] = [[], []];
  for (const group of new Set(ids.flatMap((id) => (catalogue.tools[id] as Tool).groups ?? []))) {
    const mates = (catalogue.groups.get(group) ?? []).filter((id) => visible(id) && !skip.has(nameOf(id)));
    for (const id of mates) {
      if (!marked || marked[id]) tiers[0].push(nameOf(id));
      else if (mates.length <= max) tiers[1].push(nameOf(id));
    }
  }
  return [...new Set(tiers.flat())].slice(0, max);
}
