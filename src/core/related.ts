// The search result's `related` names, loaded as a chunk of its own: a catalogue without groups never needs it.

import type { Tool } from '../base/types.ts';
import type { Catalogue } from './catalogue.ts';

/**
 * Other visible tools of the returned tools' groups, best result's group first, never one the session already has
 * (`known`), at most `max` (MAX_RELATED, passed in so this chunk imports nothing). `matched` marks every tool the
 * query matched, when the ranking marked them (the lexical one does). The tools the query also matched come first;
 * the rest follow only from groups small enough to be named whole, so one large group (one MCP server) does not fill
 * the list with names unrelated to the query. A ranking that marks no matches (the semantic hook) keeps catalogue
 * order.
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
  // Skipped by id, not name: a mate's name is read only when it is named (a visible tool's name is its own, and
  // reading each mate's tool object cost a search more than the rest).
  const skip = new Set(ids);
  for (const name of known) {
    const id = catalogue.byName.get(name);
    if (id !== undefined) skip.add(id);
  }
  const marked = matched?.includes(1) ? matched : undefined;
  // The returned tools' groups in order, each once, by plain loops: spreading a Set of a flatMap cost a search about
  // as much as the rest of this function.
  const named = new Set<string>();
  const groups: (readonly number[])[] = [];
  for (const id of ids)
    for (const group of (catalogue.tools[id] as Tool).groups ?? [])
      if (!named.has(group)) {
        named.add(group);
        groups.push(catalogue.groups.get(group) ?? []);
      }
  const out = new Set<string>();
  const mate = (id: number) => visible(id) && !skip.has(id);
  // The matched mates first, group by group, until there are `max`: a long request matches most of a large group,
  // and asking each of its hundreds of tools whether it is visible and new cost such a search about 10 us.
  for (const group of groups)
    for (const id of group)
      if ((!marked || marked[id]) && mate(id)) {
        out.add(nameOf(id));
        if (out.size === max) return [...out];
      }
  if (!marked) return [...out];
  // Then the others, from each group that has at most `max` mates (a group no larger than `max` needs no count).
  for (const group of groups) {
    if (group.length > max) {
      let mates = 0;
      for (const id of group) if (mate(id) && ++mates > max) break;
      if (mates > max) continue;
    }
    for (const id of group)
      if (!marked[id] && mate(id)) {
        out.add(nameOf(id));
        if (out.size === max) return [...out];
      }
  }
  return [...out];
}
