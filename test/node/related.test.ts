// The search result's `related` names (src/core/related.ts) stop reading a group once they have `max` names: checked
// against the whole reading it replaced (every mate of every group asked whether it is visible and new, then the
// matched ones first and the rest only from groups of at most `max` mates) on random catalogues, marks and sessions.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { catalogueOf } from '../../src/core/catalogue.ts';
import { related } from '../../src/core/related.ts';
import { seededRandom } from '../core/seeded.ts';

type Catalogue = ReturnType<typeof catalogueOf>;

/** The reading before the early stop, as it was. */
function wholeReading(
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

describe('related names', () => {
  it('are what reading every group whole gives, on random catalogues, marks, visibility and sessions', () => {
    const random = seededRandom(20261207);
    let stopped = 0;
    for (let round = 0; round < 400; round++) {
      const size = 5 + random(60);
      const groupCount = 1 + random(6);
      // Groups of every size against max: a tool in none, one or two groups.
      const tools: Tool[] = Array.from({ length: size }, (_, i) => {
        const groups = Array.from({ length: random(3) }, () => `g${random(groupCount)}`);
        return { name: `tool_${i}`, description: `tool ${i}`, ...(groups.length > 0 && { groups }) };
      });
      const catalogue = catalogueOf(tools);
      const ids = Array.from({ length: 1 + random(5) }, () => random(size));
      const hidden = new Set(Array.from({ length: random(size) }, () => random(size)));
      const visible = (id: number) => !hidden.has(id);
      const markEvery = 1 + random(4);
      const matched = random(4) === 0 ? undefined : Uint8Array.from(tools, (_, i) => (i % markEvery === 0 ? 1 : 0));
      const known = Array.from({ length: random(6) }, () => `tool_${random(size)}`);
      const max = 1 + random(12);
      const whole = wholeReading(catalogue, ids, visible, matched, known, max);
      if (whole.length === max) stopped++;
      expect(related(catalogue, ids, visible, matched, known, max)).toEqual(whole);
    }
    // Both ways out are taken: lists cut at max and lists shorter than it.
    expect(stopped).toBeGreaterThan(40);
    expect(stopped).toBeLessThan(360);
  });
});
