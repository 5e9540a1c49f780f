// A term's values after the clock moves (src/learn/score.ts looks its fades up by clock steps): the same doubles as
// fade() and the score's formula give, for whole and fractional steps, steps past the table's room, and two half-lives.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Catalogue, catalogueOf } from '../../src/core/catalogue.ts';
import { loadSearch } from '../../src/core/search-loader.ts';
import { writeTerm } from '../../src/learn/score.ts';
import { fade, type Posting, type TermEntry } from '../../src/learn/table.ts';

const names = ['alpha', 'beta', 'gamma', 'delta'];

/** The values writeTerm should give, by the formula, from fade() itself: [idf, count, id, add, ...]. */
function expected(entry: TermEntry, idf: number, catalogue: Catalogue, u: number, halfLife: number): number[] {
  const n = entry[0] * fade(u, entry[1], halfLife);
  const out: number[] = [];
  for (const [tool, c, m, at] of entry[2]) {
    const left = fade(u, at, halfLife);
    const sessions = m * left;
    const add = idf * (((c * left) / (n + 2)) * (sessions / (sessions + 2)));
    const id = catalogue.byName.get(tool) ?? -1;
    if (id >= 0 && add > 0) out.push(id, add);
  }
  return [idf, out.length / 2, ...out];
}

describe("a term's values as the clock moves", () => {
  let catalogue: Catalogue;
  beforeAll(async () => {
    await loadSearch();
    catalogue = catalogueOf(
      names.map((name) => ({ name, description: `${name} plover`, inputSchema: { type: 'object', properties: {} } })),
    );
  });

  it('are the same doubles fade() gives, step by step', () => {
    const postings: Posting[] = [
      ['alpha', 3.25, 2.5, 10],
      ['beta', 1.125, 1, 10],
      ['gamma', 2, 3, 7.5],
      ['delta', 0.5, 1.75, 0],
    ];
    const entry: TermEntry = [4.5, 3, postings];
    for (const halfLife of [50, 7.25, 5000])
      for (const u of [10, 11, 12.5, 40, 40, 1000, 20_000, 20_001, 41]) {
        const data = new Float64Array(2 + 2 * postings.length);
        writeTerm(data, 0, entry, 'plover', catalogue, u, halfLife);
        const want = expected(entry, data[0] as number, catalogue, u, halfLife);
        expect([...data.slice(0, want.length)]).toEqual(want);
      }
  });
});
