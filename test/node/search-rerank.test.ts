// The second stage (src/search/rerank.ts): its features, the CJK rule for adjacent pairs, and that it only
// reorders the best candidates, the same ones whatever the page.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { type BuiltIndex, buildIndex, PARAMS } from '../../src/search/build.ts';
import { rankFeatures, rankTools } from '../../src/search/rank.ts';
import { isCjk, queryPairs } from '../../src/search/rerank.ts';
import { FEATURES, linearScore } from '../../src/search/rerank-features.ts';
import { tokenize } from '../../src/search/tokenize.ts';

const names = (ids: readonly number[], list: readonly Tool[]): string[] => ids.map((id) => list[id]?.name as string);
const feature = (row: Float32Array, i: number, name: (typeof FEATURES)[number]): number =>
  row[i * FEATURES.length + FEATURES.indexOf(name)] as number;

describe('CJK proximity', () => {
  // The segmenter splits 会议室 into 会议|室 and 航班 into 航|班: the fragments of one word sit side by side in every
  // text that holds the word, so counting them as a phrase would lift every tool of that domain.
  const list: Tool[] = [
    { name: 'room_b', description: '会议 设备 室' },
    { name: 'room_a', description: '会议室设备' },
    { name: 'flight_b', description: '班 延误 航' },
    { name: 'flight_a', description: '航班延误' },
    { name: 'weather', description: '查询天气预报' },
  ];

  it('航班 and 会议室 do not lift the tools holding them whole above tools with the same terms apart', () => {
    const index = buildIndex(list);
    // Same terms, same lengths: a tie, kept in catalogue order.
    expect(names(rankTools(index, '查询会议室').ids, list)).toEqual(['room_b', 'room_a', 'weather']);
    expect(names(rankTools(index, '查询航班').ids, list)).toEqual(['flight_b', 'flight_a', 'weather']);
  });

  it('keeps no pair of two CJK terms, and keeps Latin pairs', () => {
    const index = buildIndex([
      ...list,
      { name: 'train_ticket', description: 'Buy a train ticket' },
      { name: 'meeting_room', description: 'Book a meeting room' },
    ]) as BuiltIndex;
    const idf = () => 1;
    expect(tokenize('查询会议室')).toEqual(['查询', '会议', '室']);
    expect(queryPairs(index, tokenize('查询会议室'), idf).size).toBe(0);
    expect(queryPairs(index, tokenize('查询航班'), idf).size).toBe(0);
    expect(queryPairs(index, tokenize('train ticket'), idf).size).toBe(2);
    // A Latin term beside a CJK one still pairs: only fragments of one CJK run are suspect.
    expect(queryPairs(index, tokenize('meeting 会议'), idf).size).toBe(2);
    expect(isCjk('航')).toBe(true);
    expect(isCjk('train')).toBe(false);
  });
});

describe('second-stage features', () => {
  const list: Tool[] = [
    {
      name: 'convert_currency',
      description: 'Convert an amount between currencies at the latest rate',
      parameters: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } } },
    },
    { name: 'exchange_rate', description: 'Latest exchange rate of a currency pair' },
    { name: 'stock_price', description: 'Latest stock price' },
    { name: 'weather', description: 'Weather for a city' },
  ];
  const groups = Int32Array.from([0, 0, 1, -1]);

  it('measures per-field coverage, the share of the name named, adjacent pairs and group evidence', () => {
    const index = buildIndex(list);
    const { ids, features } = rankFeatures(index, 'exchange rate for currency amount', 10, groups);
    const at = (name: string) => names(ids, list).indexOf(name);
    const exchange = at('exchange_rate');
    const convert = at('convert_currency');
    expect(exchange).toBeGreaterThanOrEqual(0);
    expect(convert).toBeGreaterThanOrEqual(0);
    // The best candidate's base is 1, the others' below.
    expect(feature(features, 0, 'base')).toBe(1);
    expect(feature(features, 1, 'base')).toBeLessThan(1);
    // "exchange" and "rate" are the whole name of exchange_rate; convert_currency's name holds "currency" only.
    expect(feature(features, exchange, 'nameTerms')).toBe(1);
    expect(feature(features, convert, 'nameTerms')).toBe(0.5);
    expect(feature(features, exchange, 'name')).toBeGreaterThan(feature(features, convert, 'name'));
    // Only convert_currency has parameters, "amount" and "currency".
    expect(feature(features, convert, 'paramNames')).toBeGreaterThan(0);
    expect(feature(features, exchange, 'paramNames')).toBe(0);
    // "exchange rate" is adjacent in the query and in exchange_rate's name and description.
    expect(feature(features, exchange, 'pairs')).toBeGreaterThan(0);
    expect(feature(features, convert, 'pairs')).toBe(0);
    // Both currency tools are in group 0: each is lifted by the other's score; stock_price's group has no other.
    expect(feature(features, exchange, 'group')).toBeCloseTo(feature(features, convert, 'base'), 5);
    expect(feature(features, convert, 'group')).toBeCloseTo(feature(features, exchange, 'base'), 5);
    const stock = at('stock_price');
    if (stock >= 0) expect(feature(features, stock, 'group')).toBe(0);
    // Every coverage is a share: between 0 and 1.
    for (let i = 0; i < ids.length && i * FEATURES.length < features.length; i++)
      for (const f of ['name', 'description', 'paramNames', 'nameTerms', 'group'] as const) {
        expect(feature(features, i, f)).toBeGreaterThanOrEqual(0);
        expect(feature(features, i, f)).toBeLessThanOrEqual(1);
      }
  });

  it('reorders by the weight of adjacent pairs, only among the best candidates, the same way on every page', () => {
    const saved = PARAMS.stage2.slice();
    try {
      const quotes: Tool[] = [
        { name: 'stock_quote', description: 'Stock quote: bid, ask and last price' },
        { name: 'history', description: 'Stock price history over the years' },
        // Tools without either word, so both are rare enough to weigh.
        ...['weather', 'calendar', 'email', 'maps', 'notes', 'music'].map((name) => ({
          name,
          description: `The ${name}`,
        })),
      ];
      const index = buildIndex(quotes);
      const query = 'stock price';
      PARAMS.stage2 = [0, 0, 0, 0, 0, 0];
      const plain = rankTools(index, query).ids;
      // A large weight on the pairs puts the tool holding "stock price" adjacent first.
      PARAMS.stage2 = [0, 0, 0, 0, 50, 0];
      const weighted = rankTools(index, query).ids;
      expect(names(plain, quotes)[0]).toBe('stock_quote');
      expect(names(weighted, quotes)[0]).toBe('history');
      expect(new Set(weighted)).toEqual(new Set(plain));
      for (let take = 1; take <= weighted.length; take++)
        expect(rankTools(index, query, { take }).ids).toEqual(weighted.slice(0, take));
    } finally {
      PARAMS.stage2 = saved;
    }
  });
});

describe('the query-time second stage', () => {
  const words = ['send', 'email', 'message', 'read', 'file', 'list', 'user', 'create', 'delete', 'search', 'rate'];
  // Tools whose names and descriptions hold the same words in different orders, so adjacent pairs decide ties.
  const list: Tool[] = Array.from({ length: 60 }, (_, i) => {
    const pick = (k: number) => words[(i * (k + 3) + k * k) % words.length] as string;
    return {
      name: `${pick(0)}_${pick(1)}_${i}`,
      description: `${pick(2)} ${pick(3)} ${pick(4)} ${pick(1)} ${pick(0)}`,
    };
  });

  it('weighs only the pairs, as the shipped weights do', () => {
    // rerank.ts computes the pairs alone: a tuner shipping another weight must compute that feature there too.
    expect(PARAMS.stage2.map((w, f) => (f === FEATURES.indexOf('pairs') - 1 ? 0 : w))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('orders the best candidates exactly as the full linear model over every feature does', () => {
    const index = buildIndex(list);
    const queries = ['send email message', 'read file list', 'create user rate', 'delete search file', 'email send'];
    let reordered = 0;
    for (const query of queries) {
      const { ids, features } = rankFeatures(index, query, PARAMS.rerankTop);
      const rows = features.length / FEATURES.length;
      const full = Array.from({ length: rows }, (_, i) => i)
        .sort((a, b) => linearScore(features, b, PARAMS.stage2) - linearScore(features, a, PARAMS.stage2) || a - b)
        .map((i) => ids[i] as number);
      expect(rankTools(index, query, { take: rows }).ids).toEqual(full);
      if (full.some((id, i) => id !== ids[i])) reordered++;
    }
    // The comparison would prove little if the pairs never changed the first stage's order.
    expect(reordered).toBeGreaterThan(0);
  });
});
