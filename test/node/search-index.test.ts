import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { buildIndex } from '../../src/search/build.ts';
import { getToolIndex, rankTools } from '../../src/search/index.ts';
import { tokenize, useSegmenter } from '../../src/search/tokenize.ts';

const tools: Tool[] = [
  {
    name: 'get_weather',
    description: 'Get the current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
  { name: 'sendEmail', description: 'Send an email message to a recipient' },
  { name: 'weather.forecast', description: 'Five-day forecast' },
  { name: 'queryWeather', description: '查询某城市的天气预报' },
  {
    name: 'createInvoice',
    description: 'Bill a customer',
    parameters: { type: 'object', properties: { amount_due: { type: 'number', description: 'Total owed in cents' } } },
  },
];
const names = (ids: readonly number[], list: readonly Tool[] = tools): string[] => ids.map((i) => list[i]?.name ?? '?');

describe('rankTools', () => {
  const index = getToolIndex(tools);

  it('puts every substring match in the result set', () => {
    const r = rankTools(index, 'eathe');
    expect(new Set(names(r.ids))).toEqual(new Set(['get_weather', 'weather.forecast', 'queryWeather']));
    expect(r.found).toBe(3);
  });

  it('ranks token matches first and splits identifiers', () => {
    expect(names(rankTools(index, 'send email').ids)[0]).toBe('sendEmail');
    expect(names(rankTools(index, 'weather forecast').ids)[0]).toBe('weather.forecast');
  });

  it('finds tools through parameters and stems', () => {
    expect(names(rankTools(index, 'amounts owed').ids)).toContain('createInvoice');
  });

  it('segments Chinese', () => {
    expect(names(rankTools(index, '查询天气').ids)[0]).toBe('queryWeather');
  });

  it('falls back to overlapping bigrams where the runtime has no Intl.Segmenter', () => {
    useSegmenter(null);
    try {
      expect(tokenize('查询天气预报')).toEqual(['查询', '询天', '天气', '气预', '预报']);
      const fallback = buildIndex(tools);
      expect(names(rankTools(fallback, '天气预报').ids)[0]).toBe('queryWeather');
      expect(names(rankTools(fallback, '预报').ids)).toEqual(['queryWeather']);
    } finally {
      useSegmenter(new Intl.Segmenter('zh', { granularity: 'word' }));
    }
  });

  it('returns every visible tool in catalogue order for an empty query', () => {
    expect(rankTools(index, '  ')).toEqual({ found: 5, ids: [0, 1, 2, 3, 4], keywords: [] });
    expect(rankTools(index, '', { visible: (id) => id % 2 === 0, take: 2 })).toEqual({
      found: 3,
      ids: [0, 2],
      keywords: [],
    });
  });

  it('matches nothing when only stopwords and single letters remain', () => {
    expect(rankTools(index, 'the a of 的 X')).toEqual({ found: 0, ids: [], keywords: [] });
  });

  it('reports the counted keywords, lower-cased, deduplicated, in order', () => {
    expect(rankTools(index, 'Send the EMAIL, send now').keywords).toEqual(['send', 'email', 'now']);
  });

  it('honours visible and take', () => {
    const r = rankTools(index, 'weather', { visible: (id) => id !== 0, take: 1 });
    expect(r.found).toBe(2);
    expect(r.ids).toHaveLength(1);
    expect(r.ids[0]).not.toBe(0);
    expect(rankTools(index, 'weather', { take: 0 }).ids).toEqual([]);
  });

  it('breaks ties by catalogue order and is deterministic', () => {
    const twins: Tool[] = [
      { name: 'b', description: 'same text' },
      { name: 'a', description: 'same text' },
    ];
    expect(rankTools(getToolIndex(twins), 'same text').ids).toEqual([0, 1]);
    expect(rankTools(index, 'weather city email')).toEqual(rankTools(index, 'weather city email'));
  });

  it('bounds a huge query: only its first 1,000 characters are read', () => {
    const huge = 'weather '.repeat(100_000) + 'x'.repeat(100_000);
    const r = rankTools(index, huge);
    expect(r.keywords).toEqual(['weather']);
    // The same answer as the first 1,000 characters alone, so the rest is never read (an answer, not a clock).
    expect(r).toEqual(rankTools(index, huge.slice(0, 1000)));
    expect(rankTools(index, `${'weather '.repeat(125)}email`).keywords).toEqual(['weather']);
  });
});

describe('defensive input', () => {
  it('treats odd names, shapes and cyclic schemas as ordinary data', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    const odd = [
      Object.freeze({ name: '__proto__', description: 'prototype tool' }),
      { name: 'constructor', description: 42 },
      { name: 'hasOwnProperty', parameters: null },
      { name: 'cycle', description: 'loops', parameters: cyclic },
      { name: 'toString', parameters: 'not a schema' },
    ] as unknown as Tool[];
    const index = getToolIndex(odd);
    expect(index.size).toBe(5);
    expect(names(rankTools(index, '__proto__').ids, odd)[0]).toBe('__proto__');
    expect(names(rankTools(index, 'constructor').ids, odd)).toEqual(['constructor']);
    expect(names(rankTools(index, 'self').ids, odd)).toEqual(['cycle']);
  });
});

describe('getToolIndex', () => {
  it('reuses the index for the same array, the same objects and equal tools', () => {
    const index = getToolIndex(tools);
    expect(getToolIndex(tools)).toBe(index);
    expect(getToolIndex([...tools])).toBe(index);
    expect(getToolIndex(JSON.parse(JSON.stringify(tools)) as Tool[])).toBe(index);
    expect(getToolIndex(tools.slice(1))).not.toBe(index);
  });
});

describe('ranking signals', () => {
  it('raises tools holding the query words next to each other (proximity)', () => {
    // Equal BM25 scores: without proximity, catalogue order would put "one" first.
    const list: Tool[] = [
      { name: 'one', description: 'magnetic notes field' },
      { name: 'two', description: 'notes magnetic field' },
    ];
    expect(names(rankTools(getToolIndex(list), 'magnetic field').ids, list)).toEqual(['two', 'one']);
    expect(names(rankTools(getToolIndex(list), 'field magnetic').ids, list)).toEqual(['two', 'one']);
    expect(names(rankTools(getToolIndex(list), 'notes').ids, list)).toEqual(['one', 'two']);
  });
});
