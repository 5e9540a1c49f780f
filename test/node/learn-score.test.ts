// The table's credit as a search adds it (src/learn/score.ts): each tool's value is the formula's, both when a term
// is resolved afresh and when a term resolved earlier has its adds computed again because the clock moved (from the
// numbers the record keeps, not from the entry's postings).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { type Catalogue, catalogueOf } from '../../src/core/catalogue.ts';
import { loadSearch } from '../../src/core/search-loader.ts';
import { addLearnedScores, type LearnedValues, spanOf, writeTerm } from '../../src/learn/score.ts';
import { fade, type Posting, type TermEntry } from '../../src/learn/table.ts';

const tools: Tool[] = ['get_forecast', 'write_file', 'send_email'].map((name) => ({
  name,
  description: `${name.replace('_', ' ')} for the user`,
  inputSchema: { type: 'object', properties: {} },
}));
const halfLife = 50;

/** The credit of each posting of `entry` at clock `u`, as the docs give it: c / (n + 2) · m / (m + 2), all faded. */
function expected([searched, touched, postings]: TermEntry, u: number): Map<string, number> {
  const n = searched * fade(u, touched, halfLife);
  return new Map(
    postings.map(([tool, c, m, at]) => {
      const left = fade(u, at, halfLife);
      return [tool, ((c * left) / (n + 2)) * ((m * left) / (m * left + 2))];
    }),
  );
}

/** The values a search adds for the one term `entry` is learned for, at clock `u`, by tool name. */
function added(catalogue: Catalogue, entry: TermEntry, u: number): Map<string, number> {
  const into: LearnedValues = { value: new Float64Array(tools.length), ids: [], count: 0 };
  // A term no tool holds: the credit is its only value, and the term's IDF divides out.
  const data = new Float64Array(spanOf(entry));
  writeTerm(data, 0, entry, 'plover', catalogue, u, halfLife);
  addLearnedScores({ data, at: [0], mass: data[0] as number }, 1, into);
  return new Map(into.ids.slice(0, into.count).map((id) => [(tools[id] as Tool).name, into.value[id] as number]));
}

describe('the table credit a search adds', () => {
  let catalogue: Catalogue;
  beforeAll(async () => {
    await loadSearch();
    catalogue = catalogueOf(tools);
  });

  // Credits, sessions and clocks that differ per posting, so that each number reaches a value of its own.
  const postings: Posting[] = [
    ['get_forecast', 3, 4, 90],
    ['write_file', 1.5, 2, 60],
    ['send_email', 0.5, 1, 90],
  ];
  const entry: TermEntry = [7, 80, postings];

  it('is the formula when resolved afresh', () => {
    const got = added(catalogue, entry, 100);
    for (const [tool, value] of expected(entry, 100)) expect(got.get(tool)).toBeCloseTo(value, 12);
  });

  it('is the formula again once the clock moved, from the record resolved before', () => {
    added(catalogue, entry, 100);
    for (const u of [101, 140, 400]) {
      const got = added(catalogue, entry, u);
      for (const [tool, value] of expected(entry, u)) expect(got.get(tool)).toBeCloseTo(value, 12);
    }
  });
});
