// Learning from use (SPEC 12, option `learn`): a search followed by calls of tools with results credits the
// search's terms to those tools, shared by the sessions of one scope, and reorders later searches.
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Message,
  type ToolSearch,
  ToolSearchError,
} from 'tool-search-layer';
import { describe, expect, it, vi } from 'vitest';
import { catalogue, names, ok } from './fixtures.ts';

const tools = [...catalogue];
const quiet = { warn() {} };

/** A turn as a host's history holds it: the request, a search with its result, then each tool called with a result. */
function turn(
  query: string,
  called: readonly string[],
  prefix = 't',
  via: 'direct' | 'call_tool' = 'direct',
): Message[] {
  return [
    { role: 'user', content: query },
    {
      role: 'assistant',
      toolCalls: [{ id: `${prefix}s`, name: 'search_tools', arguments: JSON.stringify({ query }) }],
    },
    { role: 'tool', toolCallId: `${prefix}s`, content: JSON.stringify({ found: 0, tools: [], related: [], hint: '' }) },
    {
      role: 'assistant',
      toolCalls: called.map((name, i) =>
        via === 'direct'
          ? { id: `${prefix}c${i}`, name, arguments: '{}' }
          : { id: `${prefix}c${i}`, name: 'call_tool', arguments: JSON.stringify({ name, arguments: {} }) },
      ),
    },
    ...called.map((_, i): Message => ({ role: 'tool', toolCallId: `${prefix}c${i}`, content: '{"ok":true}' })),
  ];
}

/** Feeds sessions, then waits for their credit: a round only queues it, and a write follows within moments. */
async function feed(layer: ToolSearch, sessions: number, query: string, called: readonly string[]): Promise<void> {
  for (let i = 0; i < sessions; i++)
    await layer.prepare({ sessionId: `feed-${query}-${i}`, tools, messages: turn(query, called) });
  await layer.flush();
}

const top = async (layer: ToolSearch, query: string, extra: object = {}) =>
  names(ok(await layer.search({ sessionId: `ask-${Math.random()}`, tools, ...extra }, { query })).tools);

/** The memory's stored pages of a scope, over its lanes (page 0 to 9 of each: all a small test writes). */
async function memoryPages(store: DiscoveredStore, scope: string): Promise<unknown[]> {
  const keys = [0, 1, 2, 3].flatMap((lane) => Array.from({ length: 10 }, (_, n) => `learn:${scope}:m${lane}:${n}`));
  const values = await Promise.all(keys.map((key) => store.shared?.get(key)));
  return values.filter((value) => value !== undefined);
}

const creditOf = async (layer: ToolSearch, tool: string, term: string) =>
  (await layer.inspectLearned()).find((c) => c.tool === tool && c.term === term);

describe('learn', () => {
  it('is off by default and validated at construction', async () => {
    const layer = createToolSearch({ logger: quiet });
    expect(layer.options.learn).toBeUndefined();
    expect(await layer.inspectLearned()).toEqual([]);
    await expect(layer.forgetLearned()).rejects.toThrow(/no `learn` option/);
    expect(createToolSearch({ learn: true }).options.learn).toMatchObject({ scope: 'default', weight: 12 });
    expect(() => createToolSearch({ learn: { weight: -1 } })).toThrow(ToolSearchError);
    expect(() => createToolSearch({ learn: { weight: -1 } })).toThrow(/"learn.weight": must be 0 or more/);
    expect(() => createToolSearch({ learn: { scope: '' } })).toThrow(/"learn.scope": must not be empty/);
    expect(() => createToolSearch({ learn: { halfLife: 0 } })).toThrow(/"learn.halfLife"/);
    expect(() => createToolSearch({ learn: { bogus: 1 } as never })).toThrow(/"learn.bogus"/);
    expect(() => createToolSearch({ learn: 'yes' as never })).toThrow(/"learn"/);
  });

  it('moves a tool the sessions called after a search up for that search, against learn off', async () => {
    const store = createMemoryStore();
    const off = createToolSearch({ logger: quiet });
    const on = createToolSearch({ learn: true, store, logger: quiet });
    // "umbrella" is in no tool's text: today it finds nothing; the sessions answered it with get_forecast.
    expect(await top(off, 'umbrella')).toEqual([]);
    const before = await top(off, 'umbrella for the city');
    expect(before[0]).not.toBe('get_forecast');
    await feed(on, 4, 'umbrella', ['get_forecast']);
    expect(await top(on, 'umbrella')).toEqual(['get_forecast']);
    // A fresh layer over the same store reads what was learned, and it outweighs a weaker keyword match.
    const fresh = createToolSearch({ learn: true, store, logger: quiet });
    expect((await top(fresh, 'umbrella for the city'))[0]).toBe('get_forecast');
    expect(await top(off, 'umbrella for the city')).toEqual(before);
  });

  it('credits each (session, search, tool) once however often the history is replayed', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    const messages = turn('rainfall', ['get_forecast']);
    for (let round = 0; round < 5; round++) await layer.prepare({ sessionId: 's', tools, messages });
    expect(await creditOf(layer, 'get_forecast', 'rainfal')).toMatchObject({ credit: 1, sessions: 1 });
    // Through call_tool, in a second session: a second session's credit.
    const bridge = createToolSearch({ learn: true, logger: quiet, exposure: 'bridge', store: layer.options.store });
    const bridged = turn('rainfall', ['get_forecast'], 'b', 'call_tool');
    for (let round = 0; round < 3; round++) await bridge.prepare({ sessionId: 's2', tools, messages: bridged });
    await bridge.flush();
    // Each layer reads the shared table again after a few seconds; a fresh one reads it now.
    const reader = createToolSearch({ learn: true, store: layer.options.store });
    expect(await creditOf(reader, 'get_forecast', 'rainfal')).toMatchObject({ credit: 2, sessions: 2 });
  });

  it('splits one search’s credit across the tools it led to, as they are called', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    const first = turn('plan trip', ['get_forecast']);
    await layer.prepare({ sessionId: 's', tools, messages: first });
    expect((await creditOf(layer, 'get_forecast', 'trip'))?.credit).toBe(1);
    // The same search then led to a second tool: the credit is split, not doubled.
    const second: Message[] = [
      ...first,
      { role: 'assistant', toolCalls: [{ id: 'late', name: 'create_event', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'late', content: 'done' },
    ];
    await layer.prepare({ sessionId: 's', tools, messages: second });
    expect((await creditOf(layer, 'get_forecast', 'trip'))?.credit).toBe(0.5);
    expect((await creditOf(layer, 'create_event', 'trip'))?.credit).toBe(0.5);
  });

  it('learns nothing from a refused call, an unanswered call, or a call after the next request', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    const messages: Message[] = [
      ...turn('rainfall', []),
      { role: 'assistant', toolCalls: [{ id: 'r', name: 'get_forecast', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'r', content: '{"notCalled":"get_forecast","error":"search first"}' },
      { role: 'assistant', toolCalls: [{ id: 'u', name: 'get_weather', arguments: '{}' }] },
      { role: 'user', content: 'something else' },
      { role: 'assistant', toolCalls: [{ id: 'l', name: 'calculator', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'l', content: '4' },
      { role: 'tool', toolCallId: 'u', content: 'sunny' },
    ];
    await layer.prepare({ sessionId: 's', tools, messages });
    expect(await layer.inspectLearned()).toEqual([]);
  });

  it('bounds what one looping session can do, however often it searches and calls', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    let messages: Message[] = [];
    for (let i = 0; i < 50; i++) {
      messages = [...messages, ...turn('zorblax', ['calculator'], `loop${i}`)];
      await layer.prepare({ sessionId: 'hostile', tools, messages });
    }
    expect(await creditOf(layer, 'calculator', 'zorblax')).toMatchObject({ credit: 1, sessions: 1 });
    // Many distinct words: at most 256 entries for the session whatever it sends, a new word taking two (the word
    // and its pair), so at most 128 words; and the 40 searches that each ended in calculator share one search's
    // worth of credit, 1/40 on each word, where 40 honest sessions would give each word a whole one.
    const words = Array.from({ length: 400 }, (_, i) => `w${i}x`);
    let flood: Message[] = [];
    for (let i = 0; i < 40; i++)
      flood = [...flood, ...turn(words.slice(i * 10, i * 10 + 10).join(' '), ['calculator'], `f${i}`)];
    await layer.prepare({ sessionId: 'flood', tools, messages: flood });
    const pairs = (await layer.inspectLearned()).filter((c) => c.term.startsWith('w'));
    expect(pairs.length).toBe(128);
    expect(new Set(pairs.map((c) => `${c.credit} ${c.sessions}`))).toEqual(new Set(['0.025 1']));
  });

  it('learns words that are also names of object properties', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    const odd = [...tools, { name: '__proto__', description: 'odd name' }, { name: 'constructor', description: 'odd' }];
    const query = 'constructor __proto__ toString hasOwnProperty';
    for (let i = 0; i < 3; i++)
      await layer.prepare({ sessionId: `o${i}`, tools: odd, messages: turn(query, ['__proto__', 'constructor']) });
    const learned = await layer.inspectLearned();
    expect(learned.filter((c) => c.tool === '__proto__').map((c) => c.term)).toContain('constructor');
    const found = ok(await layer.search({ sessionId: 'q', tools: odd }, { query: 'hasOwnProperty' }));
    expect(names(found.tools).slice(0, 2).sort()).toEqual(['__proto__', 'constructor']);
  });

  it('keeps scopes apart and forgets one scope, or all with clear()', async () => {
    const store = createMemoryStore();
    const a = createToolSearch({ learn: { scope: 'tenant-a' }, store, logger: quiet });
    const b = createToolSearch({ learn: { scope: 'tenant-b' }, store, logger: quiet });
    await feed(a, 4, 'rainfall', ['get_forecast']);
    expect((await top(a, 'rainfall'))[0]).toBe('get_forecast');
    expect(await top(b, 'rainfall')).not.toContain('get_forecast');
    expect(await b.inspectLearned()).toEqual([]);
    await feed(b, 1, 'rainfall', ['send_email']);
    await b.forgetLearned();
    expect(await b.inspectLearned()).toEqual([]);
    expect((await top(a, 'rainfall'))[0]).toBe('get_forecast');
    // clear(sessionId) leaves what the scope learned; clear() forgets it with every session.
    await a.clear('feed-rainfall-0');
    expect((await a.inspectLearned()).length).toBeGreaterThan(0);
    await a.clear();
    expect(await createToolSearch({ learn: { scope: 'tenant-a' }, store }).inspectLearned()).toEqual([]);
  });

  it('never reveals a tool outside the enabled groups, and never puts a learned word before the model', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    await feed(layer, 5, 'zorblax', ['get_forecast']);
    expect((await top(layer, 'zorblax'))[0]).toBe('get_forecast');
    const hidden = ok(await layer.search({ sessionId: 'h', tools, enabledGroups: ['mail'] }, { query: 'zorblax' }));
    expect(names(hidden.tools)).not.toContain('get_forecast');
    expect(hidden.found).toBe(0);
    expect(JSON.stringify(hidden)).not.toContain('get_forecast');
    // The model's view: the tools of a round and every search result, free of what was learned.
    const prepared = await layer.prepare({ sessionId: 'p', tools, messages: [] });
    expect(JSON.stringify(prepared.tools)).not.toContain('zorblax');
    const other = ok(await layer.search({ sessionId: 'o', tools }, { query: 'forecast' }));
    expect(JSON.stringify(other)).not.toContain('zorblax');
  });

  it('answers as learning off, whole, when nothing it learned can show: the tool hidden, or the words never learned', async () => {
    const layer = createToolSearch({ learn: true, logger: quiet });
    const off = createToolSearch({ logger: quiet });
    await feed(layer, 5, 'email the weather to my boss', ['get_forecast']);
    expect((await top(layer, 'email the weather to my boss'))[0]).toBe('get_forecast');
    const asks = [
      { query: 'email the weather to my boss', extra: { enabledGroups: ['mail', 'calendar'] }, args: {} },
      { query: 'read the newest messages in my inbox', extra: {}, args: {} },
      { query: 'read the newest messages in my inbox', extra: {}, args: { limit: 2 } },
      { query: 'list events and files', extra: {}, args: { offset: 1, limit: 3 } },
    ];
    for (const [i, { query, extra, args }] of asks.entries()) {
      const learning = await layer.search({ sessionId: `on-${i}`, tools, ...extra }, { query, ...args });
      const plain = await off.search({ sessionId: `off-${i}`, tools, ...extra }, { query, ...args });
      expect(learning).toEqual(plain);
    }
  });

  it('keeps each term’s strongest tools, at most maxToolsPerTerm', async () => {
    const layer = createToolSearch({ learn: { maxToolsPerTerm: 2 }, logger: quiet });
    await feed(layer, 3, 'quokka', ['calculator']);
    await feed(layer, 2, 'quokka', ['send_email']);
    await layer.prepare({ sessionId: 'once', tools, messages: turn('quokka', ['get_weather']) });
    const learned = (await layer.inspectLearned()).filter((c) => c.term === 'quokka');
    expect(learned.map((c) => c.tool)).toEqual(['calculator', 'send_email']);
    expect(() => createToolSearch({ learn: { maxTools: 2 } as never })).toThrow(
      /"learn.maxTools": is not a learn option/,
    );
    expect(() => createToolSearch({ learn: { maxBytes: 1000 } })).toThrow(/"learn.maxBytes": must be 32000 or more/);
  });

  it('keeps every shard within its share of maxBytes, the terms searched least of late going first', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ learn: { maxBytes: 32_000 }, store, logger: quiet });
    // 600 sessions, each searching five new words: far more than 32,000 bytes of credit.
    for (let i = 0; i < 600; i++) {
      const words = Array.from({ length: 5 }, (_, k) => `word${i}x${k}`).join(' ');
      await layer.prepare({ sessionId: `s${i}`, tools, messages: turn(words, ['calculator']) });
    }
    await feed(layer, 1, 'word0x0', ['calculator']);
    let total = 0;
    for (let i = 0; i < 32; i++) {
      const bytes = new TextEncoder().encode(JSON.stringify((await store.shared?.get(`learn:default:32:${i}`)) ?? ''));
      expect(bytes.length).toBeLessThanOrEqual(1000);
      total += bytes.length;
    }
    expect(total).toBeGreaterThan(16_000);
    const terms = new Set((await layer.inspectLearned()).map((c) => c.term));
    expect(terms.size).toBeLessThan(3000);
    // The newest words are kept, and an old word searched again; the other old words went to make room.
    expect(terms.has('word599x4')).toBe(true);
    expect(terms.has('word0x0')).toBe(true);
    expect(terms.has('word0x1')).toBe(false);
  });

  it('fades older credit as newer sessions add theirs', async () => {
    const layer = createToolSearch({ learn: { halfLife: 2 }, logger: quiet });
    // Each session written on its own: sessions queued together share one write, their credit faded alike.
    await layer.prepare({ sessionId: 'a', tools, messages: turn('foxtrot', ['get_weather']) });
    await layer.flush();
    await layer.prepare({ sessionId: 'b', tools, messages: turn('golf', ['send_email']) });
    await layer.flush();
    await layer.prepare({ sessionId: 'c', tools, messages: turn('hotel', ['calculator']) });
    // Two additions later, at a half-life of two, the first session's credit weighs a half.
    expect((await creditOf(layer, 'calculator', 'hotel'))?.credit).toBe(1);
    expect((await creditOf(layer, 'send_email', 'golf'))?.credit).toBeCloseTo(2 ** -0.5, 5);
    expect((await creditOf(layer, 'get_weather', 'foxtrot'))?.credit).toBeCloseTo(0.5, 5);
  });

  it('goes on in memory when the store’s shared space fails, with one warning', async () => {
    const warnings: string[] = [];
    const base = createMemoryStore();
    const store: DiscoveredStore = {
      ...base,
      name: 'broken-shared',
      shared: {
        get: () => Promise.reject(new Error('quota')),
        update: () => Promise.reject(new Error('quota')),
        delete: () => Promise.reject(new Error('quota')),
      },
    };
    const layer = createToolSearch({ learn: true, store, logger: { warn: (m) => warnings.push(m) } });
    await feed(layer, 4, 'rainfall', ['get_forecast']);
    expect((await top(layer, 'rainfall'))[0]).toBe('get_forecast');
    expect(warnings.filter((w) => w.includes('shared value'))).toHaveLength(1);
  });

  it('settles on the same table whether a history is read once or at every prefix, and counts each session once', async () => {
    // Two requests in one session: the first search led to two tools, the second to one of them again.
    const history: Message[] = [
      ...turn('plan a trip to the coast', ['get_forecast', 'create_event'], 'a'),
      ...turn('rainfall at the coast', ['get_forecast'], 'b'),
    ];
    const once = createToolSearch({ learn: { halfLife: 3 }, logger: quiet });
    const rounds = createToolSearch({ learn: { halfLife: 3 }, logger: quiet });
    for (const [i, query] of ['first', 'second', 'third'].entries()) {
      const other = turn(`${query} email`, ['send_email'], `o${i}`);
      await once.prepare({ sessionId: `o${i}`, tools, messages: other });
      await rounds.prepare({ sessionId: `o${i}`, tools, messages: other });
      await once.prepare({ sessionId: `s${i}`, tools, messages: history });
      for (let end = 1; end <= history.length; end++)
        await rounds.prepare({ sessionId: `s${i}`, tools, messages: history.slice(0, end) });
      await Promise.all([once.flush(), rounds.flush()]);
    }
    const table = await once.inspectLearned();
    expect(await rounds.inspectLearned()).toEqual(table);
    // get_forecast was led to by both searches: half of one search's worth each, so "coast" holds a whole credit
    // per session (1/4 + 1/2) and create_event a half; six sessions moved the clock six times.
    const coast = table.filter((c) => c.term === 'coast');
    expect(coast.map((c) => c.tool)).toEqual(['get_forecast', 'create_event']);
    const fading = [1, 2, 3].reduce((sum, k) => sum + 2 ** (-(6 - 2 * k) / 3), 0);
    expect(coast[0]?.credit).toBeCloseTo(0.75 * fading, 3);
    expect(coast[1]?.credit).toBeCloseTo(0.5 * fading, 3);
  });

  it('writes learned credit off the round: to the host’s waitUntil, in the background, or (a Worker without it) before returning', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const base = createMemoryStore();
    const shared = base.shared as NonNullable<DiscoveredStore['shared']>;
    // A shared space whose writes wait for the gate, as a slow network store's would.
    const store: DiscoveredStore = {
      ...base,
      name: 'slow-shared',
      shared: {
        ...shared,
        update: async (key, change) => {
          await gate;
          return shared.update(key, change);
        },
      },
    };
    const layer = createToolSearch({ learn: true, store, logger: quiet, storeTimeoutMs: 60_000 });
    const handed: Promise<unknown>[] = [];
    const round = layer.prepare({
      sessionId: 'w',
      tools,
      messages: turn('umbrella', ['get_forecast']),
      waitUntil: (promise) => handed.push(promise),
    });
    // The round returns while the write waits; the host's waitUntil holds it.
    await expect(round).resolves.toMatchObject({ bypassed: false });
    expect(handed).toHaveLength(1);
    const inWorkers =
      (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
    const plain = layer.prepare({ sessionId: 'p', tools, messages: turn('umbrella', ['get_forecast'], 'p') });
    let returned = false;
    void plain.then(() => {
      returned = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Without waitUntil a long-lived process writes in the background; a Worker, which would drop it, waits.
    expect(returned).toBe(!inWorkers);
    open();
    await plain;
    await Promise.all(handed);
    await layer.flush();
    expect(await creditOf(createToolSearch({ learn: true, store }), 'get_forecast', 'umbrella')).toMatchObject({
      credit: 2,
      sessions: 2,
    });
    await expect(layer.prepare({ sessionId: 'x', tools, waitUntil: 'soon' as never })).rejects.toThrow(
      /prepare: waitUntil must be a function/,
    );
  });

  it('remembers whole requests and lets similar ones vote, once two sessions agree, for visible tools only', async () => {
    const store = createMemoryStore();
    // The table off: only the memory of past requests speaks.
    const memoryOnly = { weight: 0 };
    const layer = createToolSearch({ learn: memoryOnly, store, logger: quiet });
    const asked = 'pack an umbrella for tomorrow in lisbon';
    await layer.prepare({ sessionId: 'session-a', tools, messages: turn(asked, ['get_forecast', 'create_event']) });
    await layer.flush();
    // One session's word is not enough.
    expect(await top(layer, 'umbrella tomorrow lisbon')).toEqual([]);
    await layer.prepare({
      sessionId: 'session-b',
      tools,
      messages: turn('umbrella for lisbon tomorrow?', ['get_forecast']),
    });
    await layer.flush();
    const found = await top(createToolSearch({ learn: memoryOnly, store, logger: quiet }), 'umbrella tomorrow lisbon');
    // Both sessions used get_forecast; create_event only one of them.
    expect(found).toEqual(['get_forecast']);
    const mail = ok(
      await layer.search({ sessionId: 'h', tools, enabledGroups: ['mail'] }, { query: 'umbrella tomorrow lisbon' }),
    );
    expect(names(mail.tools)).toEqual([]);
    // The store holds the requests' terms hashed: no word of them, and no session id.
    const page = JSON.stringify(await memoryPages(store, 'default'));
    expect(page).toContain('get_forecast');
    for (const word of ['umbrella', 'lisbon', 'tomorrow', 'umbrel', 'session-']) expect(page).not.toContain(word);
    await layer.forgetLearned();
    expect(await memoryPages(store, 'default')).toEqual([]);
    expect(
      await top(createToolSearch({ learn: memoryOnly, store, logger: quiet }), 'umbrella tomorrow lisbon'),
    ).toEqual([]);
  });

  it('finds requests remembered after the same search was asked: what a search keeps of its terms lasts one load', async () => {
    // The memory alone speaks: the table and the sets off.
    const memoryOnly = { weight: 0, setWeight: 0 };
    const layer = createToolSearch({ learn: memoryOnly, store: createMemoryStore(), logger: quiet });
    await layer.prepare({ sessionId: 'mail', tools, messages: turn('write to bob about the invoice', ['send_email']) });
    await layer.flush();
    // The memory holds none of these words yet: the search reads none of its terms.
    const asked = 'umbrella tomorrow lisbon';
    expect(await top(layer, asked)).toEqual([]);
    await feed(layer, 2, 'pack an umbrella for tomorrow in lisbon', ['get_forecast']);
    expect(await top(layer, asked)).toEqual(['get_forecast']);
    // And what the vote reads of the requests remembered since, their tools too.
    await feed(layer, 3, 'umbrella tomorrow in lisbon?', ['get_weather']);
    expect(await top(layer, asked)).toContain('get_weather');
  });

  it('reads on past sessions that hold many of the most similar requests, each session voting once', async () => {
    // The memory alone speaks: the table and the sets off.
    const memoryOnly = { weight: 0, setWeight: 0 };
    const layer = createToolSearch({ learn: memoryOnly, store: createMemoryStore(), logger: quiet });
    // Two sessions ask the very words again and again: their requests are the most similar, dozens of them.
    const asked = 'umbrella tomorrow lisbon';
    for (const session of ['a', 'b'])
      await layer.prepare({
        sessionId: session,
        tools,
        messages: Array.from({ length: 16 }, (_, i) => turn(asked, ['get_forecast'], `t${i}`)).flat(),
      });
    // Two more ask at more length (less similar than any of those), and agree on one more tool.
    for (const session of ['c', 'd'])
      await layer.prepare({
        sessionId: session,
        tools,
        messages: turn('an umbrella for tomorrow in lisbon, or the forecast for the whole week there', [
          'get_forecast',
          'create_event',
        ]),
      });
    await layer.flush();
    expect((await top(layer, asked)).sort()).toEqual(['create_event', 'get_forecast']);
  });

  it('reads pages written before terms were packed (each term a number) as it reads its own', async () => {
    const store = createMemoryStore();
    const memoryOnly = { weight: 0 };
    const layer = createToolSearch({ learn: memoryOnly, store, logger: quiet });
    for (const [id, asked] of [
      ['a', 'pack an umbrella for tomorrow in lisbon'],
      ['b', 'umbrella for lisbon tomorrow?'],
    ])
      await layer.prepare({ sessionId: id as string, tools, messages: turn(asked as string, ['get_forecast']) });
    await layer.flush();
    // Each term: five characters of 6 bits. Written as the full 32-bit number the earlier format kept.
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const unpack = (packed: string) =>
      Array.from({ length: packed.length / 5 }, (_, i) =>
        [...packed.slice(i * 5, i * 5 + 5)].reduce((x, c) => x * 64 + digits.indexOf(c), 0),
      ).map((term) => term + 2 ** 31);
    for (const lane of [0, 1, 2, 3]) {
      const key = `learn:default:m${lane}:0`;
      const page = (await store.shared?.get(key)) as { x: [number, number, string, number[]][] } | undefined;
      if (!page) continue;
      const x = page.x.map(([session, t, packed, used]) => [session, t, unpack(packed), used]);
      await store.shared?.update(key, () => ({ ...page, x }));
    }
    const fresh = createToolSearch({ learn: memoryOnly, store, logger: quiet });
    expect(await top(fresh, 'umbrella tomorrow lisbon')).toEqual(['get_forecast']);
  });

  it('sees what another layer on the same store remembered once 5 seconds have passed, even in pages it read empty', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = createMemoryStore();
      const memoryOnly = { weight: 0 };
      const reader = createToolSearch({ learn: memoryOnly, store, logger: quiet });
      const asked = 'umbrella tomorrow lisbon';
      expect(await top(reader, asked)).toEqual([]);
      const writer = createToolSearch({ learn: memoryOnly, store, logger: quiet });
      await writer.prepare({
        sessionId: 'a',
        tools,
        messages: turn('pack an umbrella for tomorrow in lisbon', ['get_forecast']),
      });
      await writer.prepare({
        sessionId: 'b',
        tools,
        messages: turn('umbrella for lisbon tomorrow?', ['get_forecast']),
      });
      await writer.flush();
      expect(await top(writer, asked)).toEqual(['get_forecast']);
      // The reader shares the index the writer brought up to date (one store, one isolate); alone, it would go on
      // with what it read for up to 5 seconds (docs/ranking.md). Past them it reads the pages again, and what it
      // reads (no longer the empty page it read first) keeps the index as it is.
      expect(await top(reader, asked)).toEqual(['get_forecast']);
      vi.setSystemTime(Date.now() + 5_001);
      expect(await top(reader, asked)).toEqual(['get_forecast']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the memory again once what it read is 5 seconds old, however often it searched meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = createMemoryStore();
      const memoryOnly = { weight: 0 };
      // Without the store's storage identity: the reader keeps its own cache and index, as a layer in another isolate.
      const { identity: _, ...space } = store.shared as NonNullable<DiscoveredStore['shared']>;
      const reader = createToolSearch({ learn: memoryOnly, store: { ...store, shared: space }, logger: quiet });
      const asked = 'umbrella tomorrow lisbon';
      expect(await top(reader, asked)).toEqual([]);
      const writer = createToolSearch({ learn: memoryOnly, store, logger: quiet });
      await feed(writer, 2, 'pack an umbrella', ['get_forecast']);
      vi.setSystemTime(Date.now() + 4_000);
      // What it read stands for 5 seconds: past them it reads the pages again.
      expect(await top(reader, asked)).toEqual([]);
      vi.setSystemTime(Date.now() + 1_001);
      expect(await top(reader, asked)).toEqual(['get_forecast']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps every request of a write that fills many pages (a busy moment), spread over the lanes', async () => {
    const store = createMemoryStore({ maxSessions: 10_000 });
    const warnings: string[] = [];
    // No time limit on the store: a loaded machine must not turn the write into a timeout.
    const logger = { warn: (message: string) => warnings.push(message) };
    const layer = createToolSearch({ learn: true, store, logger, storeTimeoutMs: 0 });
    // Fed in one go, the sessions' requests reach the store in one or a few writes of many pages each (the host's
    // waitUntil, so that a Worker's round does not wait for its write).
    const waitUntil = () => {};
    for (let i = 0; i < 3000; i++) {
      const words = Array.from({ length: 24 }, (_, k) => `topic${i}x${k}`).join(' ');
      const messages = turn(words, ['calculator', 'send_email']);
      await layer.prepare({ sessionId: `busy-${i}`, tools, messages, waitUntil });
    }
    await layer.flush();
    expect(warnings).toEqual([]);
    const keys = [0, 1, 2, 3].flatMap((lane) => Array.from({ length: 40 }, (_, n) => `learn:default:m${lane}:${n}`));
    const pages = (await Promise.all(keys.map((key) => store.shared?.get(key)))).filter(Boolean) as { x: unknown[] }[];
    expect(pages.reduce((sum, page) => sum + page.x.length, 0)).toBe(3000);
    // The pages a write fills go round the lanes from a random start: whatever the start and however the writes
    // were batched, the lane that took a full page handed the rest to the next.
    const lanes = await Promise.all([0, 1, 2, 3].map((lane) => store.shared?.get(`learn:default:m${lane}:0`)));
    expect(lanes.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('keeps the memory within memoryBytes, the oldest page going first, and validates the option', async () => {
    const store = createMemoryStore();
    const layer = createToolSearch({ learn: { memoryBytes: 16_000 }, store, logger: quiet });
    for (let i = 0; i < 400; i++) {
      const words = Array.from({ length: 6 }, (_, k) => `topic${i}x${k}`).join(' ');
      await layer.prepare({ sessionId: `s${i}`, tools, messages: turn(words, ['calculator', 'send_email']) });
    }
    await layer.flush();
    // 16,000 bytes: two lanes of two 4,000-byte pages; each write starts at a lane picked at random.
    let bytes = 0;
    let dropped = 0;
    for (const lane of [0, 1]) {
      const head = (await store.shared?.get(`learn:default:m${lane}`)) as { first: number; last: number } | undefined;
      for (let n = 0; n <= (head?.last ?? 0); n++) {
        const page = await store.shared?.get(`learn:default:m${lane}:${n}`);
        if (n < (head?.first ?? 0)) expect(page).toBeUndefined();
        else if (page !== undefined) bytes += new TextEncoder().encode(JSON.stringify(page)).length;
      }
      dropped += head?.first ?? 0;
    }
    expect(dropped).toBeGreaterThan(0);
    expect(await store.shared?.get('learn:default:m2')).toBeUndefined();
    expect(bytes).toBeLessThanOrEqual(16_000);
    expect(bytes).toBeGreaterThan(2_000);
    expect(() => createToolSearch({ learn: { memoryBytes: 100 } })).toThrow(/"learn.memoryBytes": must be 0 \(off\)/);
    expect(() => createToolSearch({ learn: { memoryWeight: -1 } })).toThrow(/"learn.memoryWeight": must be 0 or more/);
    // Off: nothing remembered.
    const off = createToolSearch({ learn: { memoryBytes: 0, scope: 'off' }, store, logger: quiet });
    await off.prepare({ sessionId: 'o', tools, messages: turn('umbrella', ['get_forecast']) });
    await off.flush();
    expect(await memoryPages(store, 'off')).toEqual([]);
    // One session remembers at most 16 of its requests, however many turns it has.
    const chatty = createToolSearch({ learn: { scope: 'chatty' }, store, logger: quiet });
    const turns = Array.from({ length: 20 }, (_, i) => turn(`request${i} words`, ['calculator'], `t${i}`)).flat();
    await chatty.prepare({ sessionId: 'chatty', tools, messages: turns });
    await chatty.flush();
    const pages = (await memoryPages(store, 'chatty')) as { x: unknown[] }[];
    expect(pages.reduce((sum, page) => sum + page.x.length, 0)).toBe(16);
    expect(await off.inspectLearned()).not.toEqual([]);
  });

  it('lets one session reorder a small catalogue: its word counts for little, not for nothing (docs/ranking.md)', async () => {
    const six = [
      { name: 'get_weather', description: 'Current weather conditions for a city' },
      { name: 'get_forecast', description: 'Weather forecast for the next days' },
      { name: 'send_email', description: 'Send an email message' },
      { name: 'read_inbox', description: 'List the newest messages' },
      { name: 'create_event', description: 'Create a calendar event' },
      { name: 'calculator', description: 'Evaluate an arithmetic expression' },
    ];
    const layer = createToolSearch({ learn: true, logger: quiet });
    const first = async () =>
      names(ok(await layer.search({ sessionId: `q${Math.random()}`, tools: six }, { query: 'weather' })).tools)[0];
    expect(await first()).toBe('get_weather');
    await layer.prepare({ sessionId: 'one', tools: six, messages: turn('weather', ['get_forecast']) });
    await layer.flush();
    expect(await first()).toBe('get_forecast');
  });
});
