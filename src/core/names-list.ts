// The names list in the search tool's description, cut to a budget for huge catalogues.

import type { Tool } from '../base/types.ts';
import { format, type Texts } from './texts.ts';

/**
 * Lists the names of `listed` tools in catalogue order. Past `budget` characters (0 = no limit) it keeps
 * as many whole names as fit and says how many more exist, with their groups and counts when those fit too.
 * It depends only on the round's tools, never on the discovered set, so it stays byte-stable.
 */
export function namesList(
  listed: readonly Tool[],
  budget: number,
  texts: Texts,
  enabledGroups?: readonly string[],
): string {
  const names = listed.map((tool) => tool.name);
  if (names.length === 0) return '';
  // Names without white space (every provider's rule) are parted by a space: in o200k a fifth fewer tokens than
  // ", " (GitHub MCP's 117 names: 409 instead of 525), in every request of the session. Others keep the commas.
  const sep = names.some((name) => /\s/.test(name)) ? ', ' : ' ';
  const all = `${texts.namesIntro}\n${names.join(sep)}`;
  if (budget === 0 || all.length <= budget) return all;
  // Find the longest prefix of names that fits with the closing line; the closing line depends on the rest.
  let fit = fitNames(names, budget - texts.namesIntro.length - 1, sep);
  for (;;) {
    const closing = closingLine(listed.slice(fit), budget / 2, texts, enabledGroups && new Set(enabledGroups));
    const room = budget - texts.namesIntro.length - closing.length - 2;
    const next = fitNames(names, room, sep);
    if (next >= fit) return `${texts.namesIntro}\n${names.slice(0, fit).join(sep)}\n${closing}`;
    fit = next;
  }
}

/** How many leading names fit in `room` characters, joined by `sep`. */
function fitNames(names: readonly string[], room: number, sep: string): number {
  let used = 0;
  let i = 0;
  for (; i < names.length; i++) {
    used += (names[i] as string).length + (i === 0 ? 0 : sep.length);
    if (used > room) break;
  }
  return i;
}

/** The closing line; it counts enabled groups only: a visible tool may also belong to a disabled one (SPEC 6). */
function closingLine(rest: readonly Tool[], groupBudget: number, texts: Texts, enabled?: ReadonlySet<string>): string {
  const counts = new Map<string, number>();
  for (const tool of rest)
    for (const group of tool.groups ?? [])
      if (!enabled || enabled.has(group)) counts.set(group, (counts.get(group) ?? 0) + 1);
  const summary = [...counts].map(([group, n]) => `${group} (${n})`).join(texts.listSeparator);
  if (counts.size > 0 && summary.length <= groupBudget) {
    return format(texts.namesMoreGroups, { count: rest.length, groups: summary });
  }
  return format(texts.namesMore, { count: rest.length });
}
