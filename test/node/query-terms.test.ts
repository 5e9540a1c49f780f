// The learner's tokenized queries (src/learn/query-terms.ts) are kept by their text in two generations of tables by a
// hash of the text: the same text gives the same read while kept, another text never does (however its hash falls),
// and a text dropped past the bound is read afresh, equal to what it was.
import { describe, expect, it } from 'vitest';
import { createQueryTerms } from '../../src/learn/query-terms.ts';

describe("the learner's tokenized queries", () => {
  it('gives the same read for the same text while kept, and an equal fresh one once dropped', () => {
    const queries = createQueryTerms();
    const first = queries.of('weather forecast for lisbon tomorrow, the forecast');
    expect(first.terms).toEqual(['weather', 'forecast', 'lisbon', 'tomorrow', 'forecast']);
    expect(first.first).toEqual([true, true, true, true, false]);
    expect(first.hashes[1]).toBe(first.hashes[4]);
    // Other spacing is another text: read on its own, to equal values.
    const spaced = queries.of('weather forecast for lisbon tomorrow, the forecast ');
    expect(spaced).not.toBe(first);
    expect(spaced).toEqual(first);
    // Asked again among a thousand others (the newer generation becomes the older): still the same read.
    for (let i = 0; i < 1500; i++) queries.of(`request number ${i}`);
    expect(queries.of('weather forecast for lisbon tomorrow, the forecast')).toBe(first);
    // Every text asked gives its own terms: 3,000 texts, thousands of probes past taken slots.
    for (let i = 10; i < 3010; i++)
      expect(queries.of(`ticket ${i} escalation`).terms).toEqual(['ticket', `${i}`, 'escal']);
    // Two texts of the same 32-bit FNV-1a hash (found by search): each its own read.
    const stock = queries.of('stock 131055 q');
    const hotel = queries.of('hotel 401958 q');
    expect(stock.terms).toEqual(['stock', '131055']);
    expect(hotel.terms).toEqual(['hotel', '401958']);
    expect(queries.of('stock 131055 q')).toBe(stock);
    // Past the bound with no ask between: read afresh, equal.
    const again = queries.of('weather forecast for lisbon tomorrow, the forecast');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
