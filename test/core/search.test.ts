import {
  createToolSearch,
  MAX_RELATED,
  SEARCH_TOOL_NAME,
  type SearchErrorResult,
  type SearchResult,
  type Tool,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, recordingLogger } from './fixtures.ts';

const layerWith = (options = {}) => createToolSearch({ logger: recordingLogger(), ...options });
const ok = (result: SearchResult | SearchErrorResult): SearchResult => {
  if ('error' in result) throw new Error(`unexpected error result: ${result.error}`);
  return result;
};
const search = async (
  args: unknown,
  options = {},
  context: { enabledGroups?: string[]; tools?: readonly Tool[] } = {},
) => layerWith(options).search({ sessionId: 's', tools: context.tools ?? catalogue, ...context }, args);

describe('search_tools: definition', () => {
  it('declares query (required), limit and offset as integers', async () => {
    const out = await layerWith().prepare({ sessionId: 's', tools: catalogue });
    const tool = out.tools[0] as Tool;
    expect(tool.name).toBe(SEARCH_TOOL_NAME);
    expect(tool.parameters).toMatchObject({
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
        offset: { type: 'integer', minimum: 0 },
      },
      required: ['query'],
    });
  });

  it('speaks Chinese with locale zh', async () => {
    const out = await layerWith({ locale: 'zh' }).prepare({ sessionId: 's', tools: catalogue });
    expect(out.tools[0]?.description).toMatch(/必须先搜索/);
  });
});

describe('search_tools: arguments are untrusted', () => {
  it.each([
    ['a bare non-JSON string', 'send email', /JSON object/],
    ['null', null, /JSON object/],
    ['undefined', undefined, /JSON object/],
    ['an array', [{ query: 'x' }], /JSON object/],
    ['a JSON array string', '["x"]', /JSON object/],
    ['a number', 5, /JSON object/],
    ['a missing query', {}, /"query" must be a string/],
    ['a numeric query', { query: 5 }, /"query" must be a string/],
    ['limit 0', { query: 'x', limit: 0 }, /"limit" must be an integer of at least 1/],
    ['a fractional limit', { query: 'x', limit: 2.5 }, /"limit"/],
    ['a string limit', { query: 'x', limit: '3' }, /"limit"/],
    ['a negative offset', { query: 'x', offset: -1 }, /"offset" must be an integer of at least 0/],
    ['a fractional offset in a JSON string', '{"query":"x","offset":1.5}', /"offset"/],
  ])('answers %s with { error, hint } and never throws', async (_, args, reason) => {
    const result = (await search(args)) as SearchErrorResult;
    expect(Object.keys(result).sort()).toEqual(['error', 'hint']);
    expect(result.error).toMatch(reason);
    expect(result.hint).toContain('{"query"');
  });

  it('answers in Chinese with locale zh', async () => {
    const result = (await search({ query: 1 }, { locale: 'zh' })) as SearchErrorResult;
    expect(result.error).toMatch(/query 必须是字符串/);
  });

  it('answers unknown argument names and an over-large limit with a hint, not an error', async () => {
    const result = ok(await search({ query: 'email', category: 'mail', limit: 50 }));
    expect(result.tools.length).toBeGreaterThan(0);
    expect(result.hint).toContain('Ignored unknown arguments: category.');
    expect(result.hint).toContain('One search returns at most 5 tools.');
    expect(ok(await search({ query: 'email', limit: 2 })).hint).not.toMatch(/Ignored|at most/);
  });

  it('accepts a JSON string, and null for the optional fields', async () => {
    expect(ok(await search('{"query":"email","limit":1}')).tools).toHaveLength(1);
    expect(ok(await search({ query: 'email', limit: null, offset: null })).tools.length).toBeGreaterThan(0);
  });

  it('cuts a query over 1,000 characters or 64 keywords and says so', async () => {
    const long = ok(await search({ query: `email ${'x'.repeat(2000)}` }));
    expect(long.hint).toMatch(/cut to 1,000 characters and 64 keywords/);
    expect(long.tools.map((t) => t.name)).toContain('send_email');
    const many = ok(await search({ query: `${Array.from({ length: 64 }, (_, i) => `zz${i}`).join(' ')} email` }));
    expect(many.found).toBe(0);
    expect(many.hint).toMatch(/cut to/);
    expect(ok(await search({ query: 'email' })).hint).not.toMatch(/cut to/);
    // stopwords, one-letter words and repeats are not keywords, so they do not count towards the 64
    const wordy = ok(await search({ query: `${'the a of x email '.repeat(30)}calendar` }));
    expect(wordy.hint).not.toMatch(/cut to/);
    expect(names(wordy.tools)).toEqual(expect.arrayContaining(['create_event', 'send_email']));
  });

  it('bounds absurd input instead of hanging: a huge query is answered as its first 1,000 characters', async () => {
    const huge = 'weather '.repeat(200_000);
    const head = ok(await search({ query: huge.slice(0, 1000) }));
    for (const answer of [ok(await search({ query: huge })), ok(await search(JSON.stringify({ query: huge })))]) {
      expect({ found: answer.found, tools: answer.tools }).toEqual({ found: head.found, tools: head.tools });
      expect(answer.hint).toMatch(/cut to/);
    }
  });
});

describe('search_tools: result set', () => {
  it('matches any keyword as a case-insensitive substring of the name or description', async () => {
    const result = ok(await search({ query: 'CALENDAR nothing-matches-this', limit: 10 }));
    expect(names(result.tools).sort()).toEqual(['create_event', 'list_events']);
    expect(result.found).toBe(2);
    expect(ok(await search({ query: 'irectory' })).tools.map((t) => t.name)).toEqual(['list_directory']);
  });

  it('lists every visible tool for an empty query, in catalogue order', async () => {
    const result = ok(await search({ query: '  ' }, { maxSearchResults: 0 }));
    expect(result.found).toBe(catalogue.length);
    expect(names(result.tools)).toEqual(names(catalogue));
    expect(result.pagination).toBeUndefined();
  });

  it('matches nothing when only stopwords and one-letter words remain, and says why', async () => {
    const result = ok(await search({ query: 'a the of 的 x' }));
    expect(result.found).toBe(0);
    expect(result.tools).toEqual([]);
    expect(result.hint).toMatch(/no usable keywords/);
    expect(ok(await search({ query: 'zzzzqqq' })).hint).toMatch(/No tool matched/);
  });

  it('finds tools through identifier splitting, stemming and parameter text', async () => {
    expect(names(ok(await search({ query: 'stock' })).tools)).toContain('getStockPrice');
    expect(names(ok(await search({ query: 'forecasting' })).tools)).toContain('get_forecast');
    expect(names(ok(await search({ query: 'ticker' })).tools)).toContain('getStockPrice');
  });

  it('finds Chinese tools from a Chinese query', async () => {
    expect(names(ok(await search({ query: '查询天气' })).tools)[0]).toBe('query_city_weather');
    expect(names(ok(await search({ query: '天气预报' })).tools)[0]).toBe('query_city_weather');
  });

  it('never returns the search tool itself', async () => {
    const tools = [{ name: SEARCH_TOOL_NAME, description: 'search tools' }, ...catalogue];
    const result = ok(await search({ query: 'search tools' }, { maxSearchResults: 0 }, { tools }));
    expect(names(result.tools)).not.toContain(SEARCH_TOOL_NAME);
  });
});

describe('search_tools: ranking', () => {
  it('puts the best match first', async () => {
    expect(names(ok(await search({ query: 'send an email to my boss' })).tools)[0]).toBe('send_email');
    expect(names(ok(await search({ query: 'weather forecast for tomorrow' })).tools)[0]).toBe('get_forecast');
    expect(names(ok(await search({ query: 'convert dollars to euros currency' })).tools)[0]).toBe('convertCurrency');
    expect(names(ok(await search({ query: 'read_file' })).tools)[0]).toBe('read_file');
  });

  it('breaks ties by catalogue order and is the same in every session and layer', async () => {
    const twins: Tool[] = Array.from({ length: 8 }, (_, i) => ({
      name: `twin_${i}`,
      description: 'identical twin tool',
    }));
    const result = ok(await search({ query: 'identical' }, { maxSearchResults: 0 }, { tools: twins }));
    expect(names(result.tools)).toEqual(names(twins));
    const layer = layerWith();
    await layer.prepare({ sessionId: 'x', tools: catalogue, messages: [] });
    await layer.search({ sessionId: 'x', tools: catalogue }, { query: 'file' });
    const again = ok(
      await layer.search({ sessionId: 'y', tools: catalogue }, { query: 'file directory disk', limit: 3 }),
    );
    const fresh = ok(await search({ query: 'file directory disk', limit: 3 }));
    expect(names(again.tools)).toEqual(names(fresh.tools));
  });
});

describe('search_tools: limit, pagination, related', () => {
  it('defaults limit to maxSearchResults and caps it there', async () => {
    expect(ok(await search({ query: '' })).tools).toHaveLength(5);
    expect(ok(await search({ query: '', limit: 50 })).tools).toHaveLength(5);
    expect(ok(await search({ query: '', limit: 2 })).tools).toHaveLength(2);
    expect(ok(await search({ query: '', limit: 50 }, { maxSearchResults: 0 })).tools).toHaveLength(catalogue.length);
  });

  it('pages with exactly { offset, limit, total, nextOffset } and null on the last page', async () => {
    const first = ok(await search({ query: '', limit: 6 }, { maxSearchResults: 0 }));
    expect(first.pagination).toEqual({ offset: 0, limit: 6, total: 16, nextOffset: 6 });
    expect(first.hint).toMatch(/offset 6/);
    const last = ok(await search({ query: '', limit: 6, offset: 12 }, { maxSearchResults: 0 }));
    expect(last.pagination).toEqual({ offset: 12, limit: 6, total: 16, nextOffset: null });
    expect(names(last.tools)).toEqual(names(catalogue.slice(12)));
    const past = ok(await search({ query: '', offset: 40 }));
    expect(past.tools).toEqual([]);
    expect(past.pagination).toEqual({ offset: 40, limit: 5, total: 16, nextOffset: null });
    expect(past.hint).toMatch(/past the last of 16/);
    const pages: string[] = [];
    for (let offset = 0; offset !== null; ) {
      const page = ok(await search({ query: 'file list text', limit: 2, offset }));
      pages.push(...names(page.tools));
      offset = page.pagination?.nextOffset ?? (null as never);
      if (!page.pagination) break;
    }
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages).toEqual(names(ok(await search({ query: 'file list text' }, { maxSearchResults: 0 })).tools));
  });

  it('returns fewer definitions when the ranking is confident, and pages on from there', async () => {
    // One tool holds every word of the query and the next scores far below it: it comes alone.
    const first = ok(await search({ query: 'list directory' }));
    expect(names(first.tools)).toEqual(['list_directory']);
    expect(first.found).toBe(3);
    expect(first.pagination).toEqual({ offset: 0, limit: 1, total: 3, nextOffset: 1 });
    expect(first.hint).toMatch(/offset 1\b/);
    // Paging on is not cut: the pages are disjoint and together the ranking's order.
    const rest = ok(await search({ query: 'list directory', offset: 1 }));
    expect(rest.pagination).toEqual({ offset: 1, limit: 5, total: 3, nextOffset: null });
    const all = names(ok(await search({ query: 'list directory' }, { maxSearchResults: 0 })).tools);
    expect([...names(first.tools), ...names(rest.tools)]).toEqual(all);
    expect(all).toHaveLength(3);
    // A limit the model asks for is honoured up to the cap, and maxSearchResults 0 (no limit) is never cut.
    expect(names(ok(await search({ query: 'list directory', limit: 3 })).tools)).toEqual(all);
    expect(ok(await search({ query: 'list directory', limit: 3 })).pagination).toBeUndefined();
  });

  it('returns the tool whose name a short query holds alone, even when its neighbours score close to it', async () => {
    // Tools whose names share most words: the scores alone are not confident enough to cut the page.
    const prs: Tool[] = [
      'create_pull_request',
      'create_pull_request_review',
      'list_pull_requests',
      'merge_pull_request',
      'update_pull_request',
      'pull_request_read',
    ].map((name) => ({ name, description: `${name.replaceAll('_', ' ')} in a GitHub repository` }));
    const run = async (query: string) => ok(await search({ query }, {}, { tools: prs }));
    // "create a pull request" states create_pull_request's name, word for word: it comes alone, though
    // create_pull_request_review holds every word of the query too and scores close to it.
    const create = await run('create a pull request');
    expect(names(create.tools)).toEqual(['create_pull_request']);
    expect(create.pagination).toEqual({ offset: 0, limit: 1, total: 6, nextOffset: 1 });
    expect(names((await run('request pull create')).tools)).toEqual(['create_pull_request']);
    // Two words beyond the name still state it (CONFIDENT_CUT's `held`); more describe a task, and the name does
    // not cut the page.
    expect(names((await run('create a pull request in a github repository')).tools)).toEqual(['create_pull_request']);
    expect(
      names((await run('create a pull request to update and read the github repository')).tools).length,
    ).toBeGreaterThan(1);
    // A query that names no whole tool keeps its page, and a limit the model asks is honoured.
    expect(names((await run('pull request')).tools)).toHaveLength(5);
    const three = ok(await search({ query: 'create a pull request', limit: 3 }, {}, { tools: prs }));
    expect(names(three.tools)).toHaveLength(3);
  });

  it('keeps the whole page when the ranking is not confident', async () => {
    const twins: Tool[] = Array.from({ length: 8 }, (_, i) => ({ name: `twin_${i}`, description: 'identical twin' }));
    const result = ok(await search({ query: 'identical twin' }, {}, { tools: twins }));
    expect(names(result.tools)).toEqual(names(twins.slice(0, 5)));
    expect(result.pagination).toEqual({ offset: 0, limit: 5, total: 8, nextOffset: 5 });
  });

  it('carries no filler: no empty related, no counts repeated in the hint', async () => {
    const result = ok(await search({ query: 'calculator' }));
    expect(names(result.tools)).toEqual(['calculator']);
    expect(Object.keys(result)).toEqual(['found', 'tools', 'hint']);
    expect(result.hint).toBe('Call a tool above directly by name from your next step.');
    const paged = ok(await search({ query: '', limit: 2 }));
    expect(Object.keys(paged)).toEqual(['found', 'tools', 'pagination', 'related', 'hint']);
    expect(paged.hint).not.toMatch(/16/);
  });

  it('returns full definitions', async () => {
    const [tool] = ok(await search({ query: 'send_email', limit: 1 })).tools;
    const original = catalogue[0] as Tool;
    expect(tool).toEqual({ name: original.name, description: original.description, parameters: original.parameters });
  });

  it('names related tools from the same groups, not those returned', async () => {
    // delete_email matched the query too ("email"), so it comes before read_inbox.
    const result = ok(await search({ query: 'send_email', limit: 1 }));
    expect(result.related).toEqual(['delete_email', 'read_inbox']);
    const many: Tool[] = Array.from({ length: 30 }, (_, i) => ({
      name: `member_${i}`,
      description: `member ${i}`,
      groups: ['big'],
    }));
    const capped = ok(await search({ query: 'member_0', limit: 1 }, {}, { tools: many }));
    expect(capped.related).toHaveLength(MAX_RELATED);
    expect(capped.related).not.toContain('member_0');
  });
});

describe('search_tools: searches in flight at once', () => {
  it('answers each as it answers it alone, related included, with learning or without', async () => {
    // A session's record is slow to update, so every search is in flight while the others rank and mark their results.
    const slowly = {
      name: 'slow',
      get: async () => undefined,
      update: async <T>(_id: string, apply: (current: undefined) => T) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return apply(undefined);
      },
      delete: async () => {},
      clear: async () => {},
    };
    const queries = ['send an email', 'weather forecast for tomorrow', 'list calendar events', 'read a file', 'email'];
    for (const learn of [false, true]) {
      const alone: SearchResult[] = [];
      const one = layerWith({ learn });
      for (const [i, query] of queries.entries())
        alone.push(ok(await one.search({ sessionId: `a${i}`, tools: catalogue }, { query, limit: 1 })));
      const layer = layerWith({ learn, store: slowly });
      const together = await Promise.all(
        queries.map((query, i) => layer.search({ sessionId: `t${i}`, tools: catalogue }, { query, limit: 1 })),
      );
      expect(together.map(ok)).toEqual(alone);
      expect(alone.some((result) => (result.related?.length ?? 0) > 0)).toBe(true);
    }
  });
});

describe('search_tools: related earns its characters', () => {
  // One large group (one MCP server): 30 tools, of which the query matches three besides the one returned.
  const server: Tool[] = [
    ...Array.from({ length: 26 }, (_, i) => ({
      name: `admin_${i}`,
      description: `Administer setting ${i}`,
      groups: ['srv'],
    })),
    { name: 'create_issue', description: 'Open an issue', groups: ['srv'] },
    { name: 'close_issue', description: 'Close an issue', groups: ['srv'] },
    { name: 'list_issues', description: 'List the issues', groups: ['srv'] },
    { name: 'comment_issue', description: 'Comment on an issue', groups: ['srv'] },
    { name: 'get_time', description: 'Current time', groups: ['clock'] },
    { name: 'set_alarm', description: 'Set an alarm', groups: ['clock'] },
    { name: 'get_timezone', description: 'Time zone of a place', groups: ['clock'] },
    { name: 'get_date', description: 'Current date', groups: ['clock'] },
    { name: 'get_season', description: 'Season of a date', groups: ['calendar_small'] },
  ];

  it('names the mates of a large group the query matched, not the rest of that group', async () => {
    const result = ok(await search({ query: 'issue', limit: 1 }, {}, { tools: server }));
    expect(result.related).toEqual(['close_issue', 'list_issues', 'comment_issue']);
  });

  it('names a small group whole, the mates the query matched first', async () => {
    const result = ok(await search({ query: 'current time', limit: 1 }, {}, { tools: server }));
    expect(names(result.tools)).toEqual(['get_time']);
    expect(result.related).toEqual(['get_timezone', 'get_date', 'set_alarm']);
  });

  it('leaves out what the session has already found', async () => {
    const layer = layerWith();
    const context = { sessionId: 'found-before', tools: server };
    await layer.search(context, { query: 'list issues', limit: 1 });
    const result = ok(await layer.search(context, { query: 'issue', limit: 1 }));
    expect(names(result.tools)).toEqual(['create_issue']);
    expect(result.related).toEqual(['close_issue', 'comment_issue']);
  });
});

describe('search_tools: groups never leak', () => {
  it('keeps invisible tools out of found, tools, related and hints', async () => {
    const result = ok(
      await search({ query: 'email weather file', limit: 50 }, { maxSearchResults: 0 }, { enabledGroups: ['weather'] }),
    );
    const text = JSON.stringify(result);
    for (const hidden of ['send_email', 'read_inbox', 'delete_email', 'read_file', 'write_file', 'list_directory']) {
      expect(text).not.toContain(hidden);
    }
    expect(names(result.tools).sort()).toEqual(['get_forecast', 'get_weather', 'query_city_weather']);
    expect(result.found).toBe(3);
    const empty = ok(await search({ query: '' }, { maxSearchResults: 0 }, { enabledGroups: [] }));
    expect(names(empty.tools)).toEqual(['calculator', 'translate_text', 'web_search']);
    expect(empty.found).toBe(3);
  });

  it('keeps related names inside the enabled groups of a multi-group tool', async () => {
    const tools: Tool[] = [
      ...catalogue,
      { name: 'mail_weather_digest', description: 'Weather digest by email', groups: ['mail', 'weather'] },
    ];
    const result = ok(await search({ query: 'digest', limit: 1 }, {}, { tools, enabledGroups: ['weather'] }));
    expect(names(result.tools)).toEqual(['mail_weather_digest']);
    expect(result.related).toEqual(['get_weather', 'get_forecast', 'query_city_weather']);
  });

  it('does not record an invisible tool through search', async () => {
    const layer = layerWith();
    await layer.search({ sessionId: 's', tools: catalogue, enabledGroups: ['mail'] }, { query: 'weather file email' });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(
      out.discovered.every((name) =>
        ['send_email', 'read_inbox', 'delete_email', 'calculator', 'translate_text', 'web_search'].includes(name),
      ),
    ).toBe(true);
  });
});

describe('index reuse', () => {
  it('gives the same answers for a new array of the same tools and for equal copies', async () => {
    const layer = layerWith();
    const query = { query: 'list events in my calendar', limit: 3 };
    const a = ok(await layer.search({ sessionId: 's', tools: catalogue }, query));
    const b = ok(await layer.search({ sessionId: 's', tools: [...catalogue] }, query));
    const c = ok(await layer.search({ sessionId: 's', tools: structuredClone(catalogue) as Tool[] }, query));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('does not reuse an index when a tool changed', async () => {
    const layer = layerWith();
    const changed = catalogue.map((t) =>
      t.name === 'calculator' ? { ...t, description: 'Evaluate arithmetic and zebra math' } : t,
    );
    expect(ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: 'zebra' })).found).toBe(0);
    expect(names(ok(await layer.search({ sessionId: 's', tools: changed }, { query: 'zebra' })).tools)).toEqual([
      'calculator',
    ]);
    const regrouped = catalogue.map((t) => (t.name === 'calculator' ? { ...t, groups: ['mail'] } : t));
    const result = ok(
      await layer.search({ sessionId: 's', tools: regrouped, enabledGroups: ['weather'] }, { query: 'arithmetic' }),
    );
    expect(result.found).toBe(0);
  });

  it('tells apart equal copies whose groups differ only in how they are split or named', async () => {
    const layer = layerWith();
    const query = { query: 'zebra' };
    const found = async (tools: Tool[], enabledGroups: string[]) =>
      ok(await layer.search({ sessionId: 's', tools, enabledGroups }, query)).found;
    const zebra = (groups?: string[]): Tool[] => [
      { name: 'zebra_facts', description: 'Facts about the zebra', ...(groups ? { groups } : {}) },
      { name: 'other', description: 'Something else', groups: ['z'] },
    ];
    expect(await found(zebra(['x', 'y']), ['xy'])).toBe(0);
    expect(await found(zebra(['xy']), ['xy'])).toBe(1);
    expect(await found(zebra(['']), ['q'])).toBe(0);
    expect(await found(zebra(), ['q'])).toBe(1);
    expect(await found(zebra(['\u0001a']), ['\u0001a'])).toBe(1);
    expect(await found(zebra(['\u0001a']), ['a'])).toBe(0);
  });

  it('reads groups from the current tools even when equal text shares an index', async () => {
    const layer = layerWith();
    const query = { query: 'calculator', limit: 1 };
    expect(ok(await layer.search({ sessionId: 's', tools: catalogue }, query)).related).toBeUndefined();
    const regrouped = catalogue.map((t) => ({
      ...t,
      groups: t.name === 'calculator' || t.name === 'web_search' ? ['misc'] : t.groups,
    }));
    expect(ok(await layer.search({ sessionId: 's', tools: regrouped }, query)).related).toEqual(['web_search']);
  });
});

describe('search_tools: what a result spends tokens on (SPEC 13)', () => {
  it('drops the $schema keyword and a null parameters, and leaves the caller’s schema untouched', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' } },
    };
    const tools = [
      { name: 'get_weather', description: 'Weather for a city', parameters: schema },
      { name: 'get_time', description: 'The time now' },
      ...Array.from({ length: 6 }, (_, i) => ({ name: `filler_${i}`, description: 'Filler' })),
    ];
    const layer = createToolSearch({ logger: recordingLogger() });
    const result = await layer.search({ sessionId: 's', tools }, { query: 'weather time' });
    const text = JSON.stringify(result);
    expect(text).not.toContain('$schema');
    expect(text).not.toContain('"parameters":null');
    expect((result as SearchResult).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'get_time', description: 'The time now' },
    ]);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});
