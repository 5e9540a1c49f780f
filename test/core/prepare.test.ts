import { createToolSearch, SEARCH_TOOL_NAME, type Tool, ToolSearchError } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, names, recordingLogger, searchTurn } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });

describe('prepare: bypass (step 1)', () => {
  it('passes a round with at most maxDirectTools tools through unchanged', async () => {
    const layer = createToolSearch(quiet());
    const five = catalogue.slice(0, 5);
    const out = await layer.prepare({ sessionId: 's', tools: five });
    expect(out.bypassed).toBe(true);
    expect(out.tools).toEqual(five);
    expect(out.tools.every((t, i) => t === five[i])).toBe(true);
    expect(out.discovered).toEqual([]);
  });

  it('does not count a search_tools the host passed in', async () => {
    const layer = createToolSearch(quiet());
    const tools = [...catalogue.slice(0, 5), { name: SEARCH_TOOL_NAME, description: 'host copy' }];
    expect((await layer.prepare({ sessionId: 's', tools })).bypassed).toBe(true);
    const six = catalogue.slice(0, 6);
    expect((await layer.prepare({ sessionId: 's', tools: six })).bypassed).toBe(false);
  });

  it('passes everything through when disabled', async () => {
    const layer = createToolSearch({ ...quiet(), enabled: false });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(out.bypassed).toBe(true);
    expect(names(out.tools)).toEqual(names(catalogue));
  });

  it('respects maxDirectTools: 0 (always search)', async () => {
    const layer = createToolSearch({ ...quiet(), maxDirectTools: 0 });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue.slice(0, 1) });
    expect(out.bypassed).toBe(false);
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME]);
  });
});

describe('prepare: direct tools (step 2) and replacement (step 3)', () => {
  it('exposes the search tool, then direct tools in option order, as the caller objects', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['web_search', 'calculator'] });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(out.bypassed).toBe(false);
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'web_search', 'calculator']);
    expect(out.tools[1]).toBe(catalogue.find((t) => t.name === 'web_search'));
  });

  it('replaces a search_tools passed by the host with its own definition', async () => {
    const layer = createToolSearch(quiet());
    const hostCopy = { name: SEARCH_TOOL_NAME, description: 'host copy' };
    const out = await layer.prepare({ sessionId: 's', tools: [hostCopy, ...catalogue] });
    expect(out.tools).toHaveLength(1);
    expect(out.tools[0]).not.toBe(hostCopy);
    expect(out.tools[0]?.description).not.toContain('host copy');
  });

  it('warns once per layer and name about a direct tool missing from the round', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger, alwaysDirectTools: ['web_search', 'no_such_tool'] });
    const first = await layer.prepare({ sessionId: 'a', tools: catalogue });
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain('no_such_tool');
    expect((await layer.prepare({ sessionId: 'a', tools: catalogue })).warnings).toEqual([]);
    expect((await layer.prepare({ sessionId: 'b', tools: catalogue })).warnings).toEqual([]);
    expect(logger.lines).toHaveLength(1);
    const other = createToolSearch({ logger, alwaysDirectTools: ['no_such_tool'] });
    expect((await other.prepare({ sessionId: 'a', tools: catalogue })).warnings).toHaveLength(1);
  });

  it('exposes each tool once even when it is both direct and discovered', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['get_weather'] });
    const messages = searchTurn('c1', ['get_weather', 'send_email']);
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages });
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'get_weather', 'send_email']);
  });

  it('keeps a discovered tool that left the round in the store without exposing it', async () => {
    const layer = createToolSearch(quiet());
    await layer.prepare({
      sessionId: 's',
      tools: catalogue,
      messages: searchTurn('c1', ['send_email', 'get_weather']),
    });
    const without = catalogue.filter((t) => t.name !== 'send_email');
    const out = await layer.prepare({ sessionId: 's', tools: without });
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'get_weather']);
    expect(out.discovered).toEqual(['send_email', 'get_weather']);
    const back = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(names(back.tools)).toEqual([SEARCH_TOOL_NAME, 'send_email', 'get_weather']);
  });
});

describe('prepare: enabledGroups', () => {
  const history = searchTurn('c1', ['send_email', 'get_weather', 'calculator']);

  it('exposes only visible tools and lists only visible names', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['read_file', 'web_search'] });
    const out = await layer.prepare({
      sessionId: 's',
      tools: catalogue,
      messages: history,
      enabledGroups: ['weather'],
    });
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'web_search', 'get_weather', 'calculator']);
    const description = out.tools[0]?.description ?? '';
    for (const hidden of ['send_email', 'read_inbox', 'read_file', 'list_directory', 'create_event', 'getStockPrice']) {
      expect(description).not.toContain(hidden);
    }
    expect(description).toContain('get_forecast');
    expect(description).toContain('translate_text');
    // the set itself still holds the invisible discovery
    expect(out.discovered).toContain('send_email');
  });

  it('leaves only ungrouped tools with enabledGroups: []', async () => {
    const layer = createToolSearch(quiet());
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: history, enabledGroups: [] });
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'calculator']);
  });

  it('shows a tool when any one of its groups is enabled', async () => {
    const layer = createToolSearch(quiet());
    const multi: Tool[] = [
      ...catalogue,
      { name: 'mail_weather_digest', description: 'Weather by email', groups: ['mail', 'weather'] },
    ];
    const out = await layer.prepare({ sessionId: 's', tools: multi, enabledGroups: ['weather'] });
    expect(out.tools[0]?.description).toContain('mail_weather_digest');
  });
});

describe('prepare: names list (step 5)', () => {
  it('lists every other visible name, including discovered ones, and tells the model to search first', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['web_search'] });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue, messages: searchTurn('c1', ['send_email']) });
    const description = out.tools[0]?.description ?? '';
    for (const tool of catalogue) {
      if (tool.name === 'web_search') continue;
      expect(description).toContain(tool.name);
    }
    expect(description.match(/web_search/g)).toBeNull();
    expect(description).toMatch(/search for a tool to get its parameters before you call it/);
    // names only: no descriptions leak into the list
    expect(description).not.toContain('Evaluate an arithmetic expression');
  });

  it('parts the names by spaces, or by commas when a name holds white space', async () => {
    const layer = createToolSearch(quiet());
    const list = async (tools: readonly Tool[]) =>
      ((await layer.prepare({ sessionId: 's', tools })).tools[0]?.description ?? '').split('\n').at(-1);
    expect(await list(catalogue)).toBe(catalogue.map((t) => t.name).join(' '));
    const spaced = [...catalogue, { name: 'look up', description: 'A name with a space' }];
    expect(await list(spaced)).toBe(spaced.map((t) => t.name).join(', '));
  });

  it('omits the list when every other tool is direct', async () => {
    const direct = catalogue.slice(0, 6).map((t) => t.name);
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: direct });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue.slice(0, 6) });
    expect(out.tools[0]?.description).toBe(layer.options.texts.description);
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, ...direct]);
  });

  it('omits the list with showToolNames: false', async () => {
    const layer = createToolSearch({ ...quiet(), showToolNames: false });
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(out.tools[0]?.description).not.toContain('send_email');
  });

  it('cuts a long list to the budget: whole names, catalogue order, then how many more and their groups', async () => {
    const many: Tool[] = Array.from({ length: 400 }, (_, i) => ({
      name: `tool_number_${String(i).padStart(3, '0')}`,
      description: `Tool ${i}`,
      groups: [i < 200 ? 'alpha' : 'beta'],
    }));
    const layer = createToolSearch({ ...quiet(), toolNamesBudget: 1000 });
    const description = (await layer.prepare({ sessionId: 's', tools: many })).tools[0]?.description ?? '';
    const listPart = description.slice(description.indexOf(layer.options.texts.namesIntro));
    expect(listPart.length).toBeLessThanOrEqual(1000);
    const listed = listPart.match(/tool_number_\d{3}/g) ?? [];
    expect(listed.length).toBeGreaterThan(10);
    expect(listed).toEqual(many.slice(0, listed.length).map((t) => t.name));
    const rest = 400 - listed.length;
    expect(listPart).toContain(`${rest} more tools not listed here, in these groups:`);
    expect(listPart).toMatch(/beta \(200\)/);
    const unlimited = createToolSearch({ ...quiet(), toolNamesBudget: 0 });
    const full = (await unlimited.prepare({ sessionId: 's', tools: many })).tools[0]?.description ?? '';
    expect(full.match(/tool_number_\d{3}/g)).toHaveLength(400);
  });

  it('drops group counts that do not fit, keeping the count of the rest', async () => {
    const many: Tool[] = Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, groups: [`group-${i}`] }));
    const layer = createToolSearch({ ...quiet(), toolNamesBudget: 400 });
    const description = (await layer.prepare({ sessionId: 's', tools: many })).tools[0]?.description ?? '';
    expect(description).toMatch(/…and \d+ more tools not listed here; search by keywords/);
    expect(description).not.toContain('group-299');
  });
});

describe('prepare: prefix stability (step 6)', () => {
  it('keeps the search tool byte-stable and appends discoveries over a 20-round scripted session', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['web_search'], maxDiscoveredKeep: 0 });
    const order = [
      'get_forecast',
      'send_email',
      'read_file',
      'calculator',
      'create_event',
      'convertCurrency',
      'translate_text',
    ];
    const messages = [{ role: 'user' as const, content: 'hello' }];
    let previous: Tool[] | undefined;
    let firstDefinition: string | undefined;
    const exposedOrder: string[] = [];
    for (let round = 0; round < 20; round++) {
      if (round % 3 === 1 && order.length > 0) {
        const found = order.splice(0, round % 2 === 0 ? 1 : 2);
        messages.push(...(searchTurn(`call-${round}`, found) as never[]));
        exposedOrder.push(...found);
      }
      if (round % 4 === 3) {
        // a use of an already discovered tool must not reorder the block
        messages.push(
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: `use-${round}`, name: exposedOrder[0] as string }],
          } as never,
          { role: 'tool', toolCallId: `use-${round}`, content: 'ok' } as never,
        );
      }
      // the host rebuilds its arrays every step
      const out = await layer.prepare({ sessionId: 'stable', tools: [...catalogue], messages: [...messages] });
      const definition = JSON.stringify(out.tools[0]);
      firstDefinition ??= definition;
      expect(definition).toBe(firstDefinition);
      expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, 'web_search', ...exposedOrder]);
      if (previous) {
        // the previous block is a prefix of this one
        expect(JSON.stringify(out.tools).startsWith(JSON.stringify(previous).slice(0, -1))).toBe(true);
      }
      previous = out.tools;
    }
    expect(exposedOrder).toHaveLength(7);
  });

  it('returns the same search tool object while the round tools are unchanged', async () => {
    const layer = createToolSearch(quiet());
    const a = await layer.prepare({ sessionId: 's', tools: catalogue });
    const b = await layer.prepare({ sessionId: 's', tools: [...catalogue], messages: searchTurn('x', ['send_email']) });
    expect(b.tools[0]).toBe(a.tools[0]);
    const c = await layer.prepare({ sessionId: 's', tools: catalogue.slice(1) });
    expect(c.tools[0]?.description).not.toBe(a.tools[0]?.description);
  });

  it('changes an earlier position only on eviction', async () => {
    const layer = createToolSearch({ ...quiet(), maxDiscoveredKeep: 3 });
    const messages = [...searchTurn('1', ['send_email', 'get_weather', 'read_file'])];
    expect(names((await layer.prepare({ sessionId: 's', tools: catalogue, messages })).tools).slice(1)).toEqual([
      'send_email',
      'get_weather',
      'read_file',
    ]);
    messages.push(...searchTurn('2', ['calculator']));
    expect(names((await layer.prepare({ sessionId: 's', tools: catalogue, messages })).tools).slice(1)).toEqual([
      'get_weather',
      'read_file',
      'calculator',
    ]);
  });
});

describe('prepare: inputs', () => {
  it('never mutates its inputs (frozen inputs work)', async () => {
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) {
        for (const inner of Object.values(value)) deepFreeze(inner);
        Object.freeze(value);
      }
      return value;
    };
    const tools = deepFreeze(structuredClone(catalogue) as Tool[]);
    const messages = deepFreeze(searchTurn('c', ['send_email']));
    const before = JSON.stringify({ tools, messages });
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
    await layer.prepare({ sessionId: 's', tools, messages, enabledGroups: deepFreeze(['mail']) });
    await layer.search({ sessionId: 's', tools }, deepFreeze({ query: 'email' }));
    expect(JSON.stringify({ tools, messages })).toBe(before);
  });

  it('writes debug lines only to a logger that has debug', async () => {
    const lines: string[] = [];
    const layer = createToolSearch({ logger: { warn() {}, debug: (m: string) => lines.push(m) } });
    await layer.prepare({ sessionId: 's', tools: catalogue });
    await layer.search({ sessionId: 's', tools: catalogue }, { query: 'email' });
    expect(lines).toEqual([
      `[tool-search-layer] s: exposing 1 of ${catalogue.length} tools`,
      expect.stringMatching(/^\[tool-search-layer\] s: "email" found \d+$/),
    ]);
  });

  it('keeps extra fields because it returns the caller objects', async () => {
    const layer = createToolSearch(quiet());
    const tools = catalogue.map((t) => ({ ...t, execute: () => 42, meta: { x: 1 } }));
    const out = await layer.prepare({ sessionId: 's', tools, messages: searchTurn('c', ['send_email']) });
    expect(out.tools[1]).toBe(tools[0]);
  });

  it('treats names such as __proto__ and constructor as ordinary names', async () => {
    const layer = createToolSearch(quiet());
    const tools: Tool[] = [
      ...catalogue,
      { name: '__proto__', description: 'prototype tool' },
      { name: 'constructor', description: 'constructor tool' },
      { name: 'hasOwnProperty', description: 'own property tool' },
    ];
    const out = await layer.prepare({
      sessionId: '__proto__',
      tools,
      messages: searchTurn('c', ['__proto__', 'constructor']),
    });
    expect(names(out.tools)).toEqual([SEARCH_TOOL_NAME, '__proto__', 'constructor']);
    const found = await layer.search({ sessionId: 'constructor', tools }, { query: 'prototype' });
    expect('error' in found ? [] : names(found.tools)).toEqual(['__proto__']);
  });

  it('throws a ToolSearchError for host mistakes, naming the field', async () => {
    const layer = createToolSearch(quiet());
    await expect(layer.prepare({ sessionId: 1 as never, tools: catalogue })).rejects.toThrow(
      /sessionId must be a string/,
    );
    await expect(layer.prepare({ sessionId: 's', tools: 'x' as never })).rejects.toThrow(ToolSearchError);
    await expect(layer.prepare({ sessionId: 's', tools: catalogue, enabledGroups: 'mail' as never })).rejects.toThrow(
      /enabledGroups/,
    );
    await expect(layer.search({ sessionId: 's', tools: {} as never }, { query: 'x' })).rejects.toThrow(
      /search: tools must be an array/,
    );
    // A bad entry in the tools is a third party's mistake, not the host's: it is skipped (hygiene.test.ts).
  });

  it('gives the same result whatever else the host does between rounds (no hidden order dependence)', async () => {
    const a = createToolSearch(quiet());
    const b = createToolSearch(quiet());
    const messages = searchTurn('c', ['send_email', 'get_weather']);
    await b.search({ sessionId: 'other', tools: catalogue }, { query: 'calendar' });
    await b.prepare({ sessionId: 'other', tools: catalogue.slice(2) });
    const left = await a.prepare({ sessionId: 's', tools: catalogue, messages });
    const right = await b.prepare({ sessionId: 's', tools: catalogue, messages });
    expect(JSON.stringify(left.tools)).toBe(JSON.stringify(right.tools));
  });
});
