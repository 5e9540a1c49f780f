// Catalogue hygiene (SPEC section 10): bad entries from third parties are skipped with a warning, never fatal.
import {
  createMemoryStore,
  createToolSearch,
  SEARCH_TOOL_NAME,
  type SearchErrorResult,
  type SearchResult,
  type Tool,
  ToolSearchError,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, recordingLogger, searchTurn } from './fixtures.ts';

const ok = (result: SearchResult | SearchErrorResult): SearchResult => {
  if ('error' in result) throw new Error(result.error);
  return result;
};

// Each entry is skipped for its own reason; the marker word "zebra" is in every one that has text.
const bad: [string, unknown, RegExp][] = [
  ['null', null, /tools\[16\] is skipped: a tool is an object, and this entry is null/],
  ['a number', 42, /tools\[16\] is skipped: .*a number/],
  ['a string', 'zebra_tool', /tools\[16\] is skipped: .*a string/],
  ['an array', ['zebra'], /tools\[16\] is skipped: .*an array/],
  ['no name', { description: 'zebra crossing' }, /tools\[16\] is skipped: .*has no name/],
  ['an empty name', { name: '', description: 'zebra crossing' }, /tools\[16\] is skipped: .*an empty name/],
  ['a number name', { name: 7, description: 'zebra crossing' }, /tools\[16\] is skipped: .*a number as its name/],
  [
    'groups not an array',
    { name: 'zebra_groups', description: 'zebra', groups: 'mail' },
    /tools\[16\] \("zebra_groups"\) is skipped: its groups must be an array of strings/,
  ],
  [
    'groups not all strings',
    { name: 'zebra_groups', description: 'zebra', groups: ['mail', 3] },
    /tools\[16\] \("zebra_groups"\)/,
  ],
];

const tail = (tools: readonly Tool[]): Tool[] => [
  ...tools,
  { name: 'zebra_real', description: 'A real zebra tool', groups: ['mail'] },
];

describe('catalogue hygiene', () => {
  it.each(bad)(
    'skips an entry (%s): never searched, counted, exposed, listed or related',
    async (_, entry, warning) => {
      const logger = recordingLogger();
      const layer = createToolSearch({ logger, maxSearchResults: 0 });
      const tools = tail([...catalogue, entry as Tool]);
      const out = await layer.prepare({ sessionId: 's', tools });
      expect(out.bypassed).toBe(false);
      expect(out.warnings).toHaveLength(1);
      expect(out.warnings[0]).toMatch(warning);
      const description = out.tools[0]?.description ?? '';
      expect(description).toContain('zebra_real');
      expect(description).not.toMatch(/zebra_tool|zebra_groups|\b42\b/);
      const found = ok(await layer.search({ sessionId: 's', tools }, { query: 'zebra' }));
      expect(names(found.tools)).toEqual(['zebra_real']);
      expect(found.found).toBe(1);
      const all = ok(await layer.search({ sessionId: 's', tools }, { query: '' }));
      expect(all.found).toBe(catalogue.length + 1);
      expect(all.tools).toHaveLength(catalogue.length + 1);
      // A session of its own: related leaves out what 's' has found by now (every tool).
      const mail = ok(await layer.search({ sessionId: 'mail', tools }, { query: 'send email', limit: 1 }));
      expect(mail.related).toEqual(['delete_email', 'read_inbox', 'zebra_real']);
      // Warned once for the layer: prepare reported it, the searches did not log it again.
      expect(logger.lines).toHaveLength(1);
    },
  );

  it('warns once per layer and skipped entry, across rounds, new arrays and search; a new layer warns again', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    const tools = [...catalogue, { name: '' } as Tool, null as never];
    const first = await layer.prepare({ sessionId: 's', tools });
    expect(first.warnings).toEqual([
      'tools[16] is skipped: a tool needs a non-empty string name, and this one has an empty name',
      'tools[17] is skipped: a tool is an object, and this entry is null',
    ]);
    expect((await layer.prepare({ sessionId: 's', tools })).warnings).toEqual([]);
    expect((await layer.prepare({ sessionId: 's', tools: [...tools] })).warnings).toEqual([]);
    await layer.search({ sessionId: 't', tools: [...tools] }, { query: 'email' });
    // The same entries in a changed catalogue are the same warnings; a new position is a new one.
    const moved = await layer.prepare({ sessionId: 's', tools: [...tools, null as never] });
    expect(moved.warnings).toEqual(['tools[18] is skipped: a tool is an object, and this entry is null']);
    expect(logger.lines).toHaveLength(3);
    expect(logger.lines.every((line) => line.startsWith('[tool-search-layer] tools['))).toBe(true);
    const other = createToolSearch({ logger: recordingLogger() });
    expect((await other.prepare({ sessionId: 's', tools })).warnings).toHaveLength(2);
  });

  it('a search logs the warnings of a catalogue it is the first to see', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    const result = ok(await layer.search({ sessionId: 's', tools: [...catalogue, 3 as never] }, { query: 'email' }));
    expect(result.found).toBeGreaterThan(0);
    expect(logger.lines).toEqual([
      '[tool-search-layer] tools[16] is skipped: a tool is an object, and this entry is a number',
    ]);
  });

  it('keeps the first of a repeated name and skips the rest, warning for each', async () => {
    const layer = createToolSearch({ logger: recordingLogger(), maxSearchResults: 0 });
    const twin = { name: 'send_email', description: 'A second send_email, which sends faxes', groups: ['fax'] };
    const tools = [...catalogue, twin, { name: 'get_weather', description: 'weather again' }];
    const out = await layer.prepare({ sessionId: 's', tools, messages: searchTurn('c', ['send_email']) });
    expect(out.warnings).toEqual([
      'tools[16] ("send_email") is skipped: it repeats the name of tools[0], which is kept',
      'tools[17] ("get_weather") is skipped: it repeats the name of tools[3], which is kept',
    ]);
    expect(out.tools.filter((t) => t.name === 'send_email')).toEqual([catalogue[0]]);
    const listed = (out.tools[0]?.description ?? '').match(/send_email/g);
    expect(listed).toHaveLength(1);
    // In a fresh session: session 's' holds send_email's definition already (its tools block), so it is `shown` there.
    const email = ok(await layer.search({ sessionId: 'fresh', tools }, { query: 'send_email' }));
    expect(email.tools.filter((t) => t.name === 'send_email')).toEqual([
      { name: 'send_email', description: catalogue[0]?.description, parameters: catalogue[0]?.parameters },
    ]);
    const fax = ok(await layer.search({ sessionId: 's', tools }, { query: 'faxes' }));
    expect(fax.found).toBe(0);
    const weather = ok(await layer.search({ sessionId: 's', tools }, { query: 'weather' }));
    expect(names(weather.tools).filter((n) => n === 'get_weather')).toHaveLength(1);
    const all = ok(await layer.search({ sessionId: 's', tools }, { query: '' }));
    expect(all.found).toBe(catalogue.length);
    // The twin's group is never reached through related either.
    const withFax = [...catalogue, twin, { name: 'fax_status', description: 'Status of a fax', groups: ['fax'] }];
    const status = ok(await layer.search({ sessionId: 's', tools: withFax }, { query: 'fax status' }));
    expect(names(status.tools)).toEqual(['fax_status']);
    expect(status.related).toBeUndefined();
  });

  it('a skipped entry does not claim its name: a later valid tool of that name is kept', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const tools = [...catalogue, { name: 'zebra', groups: 'x' } as never, { name: 'zebra', description: 'ok' }];
    const out = await layer.prepare({ sessionId: 's', tools });
    expect(out.warnings).toEqual(['tools[16] ("zebra") is skipped: its groups must be an array of strings']);
    const found = ok(await layer.search({ sessionId: 's', tools }, { query: 'zebra' }));
    expect(found.tools).toEqual([{ name: 'zebra', description: 'ok' }]);
  });

  it('counts only kept tools for the bypass, and does not pass skipped entries through', async () => {
    const layer = createToolSearch({ logger: recordingLogger(), maxDirectTools: 5 });
    const five = catalogue.slice(0, 5);
    const tools = [...five, null as never, { name: '' } as Tool, five[0] as Tool, { ...five[1], groups: 7 } as never];
    const out = await layer.prepare({ sessionId: 's', tools });
    expect(out.bypassed).toBe(true);
    expect(out.tools).toEqual(five);
    expect(out.warnings).toHaveLength(4);
    const six = await layer.prepare({ sessionId: 's', tools: [...tools, catalogue[5] as Tool] });
    expect(six.bypassed).toBe(false);
    // A layer that is off passes everything through untouched, without looking.
    const off = await createToolSearch({ enabled: false }).prepare({ sessionId: 's', tools });
    expect(off.tools).toEqual(tools);
    expect(off.warnings).toEqual([]);
  });

  it('ignores history naming a skipped entry', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const tools = [...catalogue, { name: 'ghost', groups: [1] } as never];
    const out = await layer.prepare({ sessionId: 's', tools, messages: searchTurn('c', ['ghost', 'calculator']) });
    expect(out.discovered).toEqual(['calculator']);
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'calculator']);
  });

  it('warns once per layer about MCP-shaped tools, naming the adapter, and still searches them by name', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger });
    const mcp = [
      { name: 'zebra_fetch', description: 'Fetch a zebra', inputSchema: { type: 'object' } },
      { name: 'zebra_feed', description: 'Feed a zebra', inputSchema: { type: 'object' } },
    ];
    const tools = [...catalogue, ...mcp];
    const out = await layer.prepare({ sessionId: 's', tools });
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain("'tool-search-layer/mcp'");
    expect((await layer.prepare({ sessionId: 's', tools: [...catalogue, ...mcp.slice(1)] })).warnings).toEqual([]);
    const found = ok(await layer.search({ sessionId: 's', tools }, { query: 'zebra' }));
    expect(names(found.tools)).toEqual(['zebra_fetch', 'zebra_feed']);
    // A tool with both parameters and an inputSchema is not in the MCP shape.
    const both = createToolSearch({ logger: recordingLogger() });
    const fine = [...catalogue, { name: 'x_tool', parameters: {}, inputSchema: {} }];
    expect((await both.prepare({ sessionId: 's', tools: fine })).warnings).toEqual([]);
  });

  it('skips OpenAI-shaped tools, naming each and the adapter once', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    const openai = ['zebra_a', 'zebra_b'].map((name) => ({
      type: 'function',
      function: { name, description: 'A zebra tool', parameters: { type: 'object' } },
    }));
    const tools = [...catalogue, ...(openai as never[])];
    const out = await layer.prepare({ sessionId: 's', tools });
    expect(out.warnings).toEqual([
      `tools[16] ("zebra_a") is skipped: it has the OpenAI shape { type: 'function', function } and no name of its own`,
      `tools[17] ("zebra_b") is skipped: it has the OpenAI shape { type: 'function', function } and no name of its own`,
      expect.stringContaining("'tool-search-layer/openai'"),
    ]);
    expect(ok(await layer.search({ sessionId: 's', tools }, { query: 'zebra' })).found).toBe(0);
  });

  it('checkCall never lets a skipped entry through, and counts kept tools for the bypass', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger, maxDirectTools: 5 });
    const ghost = { name: 'ghost_tool', description: 'ghost', groups: [1] } as never;
    const tools = [...catalogue, ghost];
    const check = await layer.checkCall({ sessionId: 's', tools }, 'ghost_tool');
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.result.closest).not.toContain('ghost_tool');
    expect(logger.lines).toEqual([expect.stringContaining('tools[16] ("ghost_tool") is skipped')]);
    // Five kept tools and three skipped ones: a bypassed round, where every kept tool may be called.
    const small = [...catalogue.slice(0, 5), null as never, { name: '' } as Tool, catalogue[0] as Tool];
    expect(await layer.checkCall({ sessionId: 's', tools: small }, 'get_forecast')).toEqual({ ok: true });
  });

  it('still throws when tools is not an array: that is the host mistake', async () => {
    const layer = createToolSearch({ logger: recordingLogger() });
    await expect(layer.prepare({ sessionId: 's', tools: { length: 0 } as never })).rejects.toThrow(
      /prepare: tools must be an array/,
    );
  });
});

describe('option errors', () => {
  const message = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      expect(ToolSearchError.isInstance(error)).toBe(true);
      return (error as Error).message;
    }
    throw new Error('did not throw');
  };

  it('reports every invalid option at once', () => {
    expect(message(() => createToolSearch({ maxDirectTools: -1, locale: 'fr' as never }))).toBe(
      '[tool-search-layer] createToolSearch: invalid options: "maxDirectTools": must be 0 or more (received -1); "locale": must be "en" or "zh" (received "fr")',
    );
    expect(message(() => createMemoryStore({ maxSessions: 0, idleTimeoutMs: 1.5 }))).toBe(
      '[tool-search-layer] createMemoryStore: invalid options: "maxSessions": must be 1 or more (received 0); "idleTimeoutMs": must be an integer (received 1.5)',
    );
  });

  it('never repeats the value nor says "(received Array)"', () => {
    expect(message(() => createToolSearch({ alwaysDirectTools: ['a', 'b', 'a'] }))).toBe(
      '[tool-search-layer] createToolSearch: invalid option "alwaysDirectTools": must not repeat a name ("a")',
    );
    expect(message(() => createToolSearch({ alwaysDirectTools: 'web_search' as never }))).toBe(
      '[tool-search-layer] createToolSearch: invalid option "alwaysDirectTools": must be an array (received "web_search")',
    );
    expect(message(() => createToolSearch({ enabled: [] as never }))).toBe(
      '[tool-search-layer] createToolSearch: invalid option "enabled": must be true or false',
    );
    expect(message(() => createToolSearch({ maxResults: 3 } as never))).toBe(
      '[tool-search-layer] createToolSearch: invalid option "maxResults": is not an option',
    );
    expect(message(() => createToolSearch({ texts: 'x' as never }))).toBe(
      '[tool-search-layer] createToolSearch: invalid option "texts": must be an object (received "x")',
    );
  });

  it('rejects null options; undefined stays the defaults', () => {
    expect(message(() => createToolSearch(null as never))).toBe(
      '[tool-search-layer] createToolSearch: invalid options: expected an object or nothing, received null',
    );
    expect(message(() => createMemoryStore(null as never))).toMatch(/createMemoryStore: invalid options: .*null/);
    expect(message(() => createToolSearch([] as never))).toMatch(/received an array/);
    expect(createToolSearch(undefined).options.maxDirectTools).toBe(5);
    expect(createMemoryStore(undefined).name).toBe('memory');
  });
});
