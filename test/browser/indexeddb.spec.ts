// The IndexedDB store's acceptance test: two tabs of one origin discover different tools in the same
// session at the same moment; after both finish and a tab reloads, every discovery of both is there.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { SharedSpace } from 'tool-search-layer';
import { catalogue } from '../core/fixtures.ts';

interface TabRun {
  found: string[];
  started: number;
  ended: number;
  warnings: string[];
}

/** A tab on the store's page; page errors and console errors land in `problems`. */
async function openTab(context: BrowserContext, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  await page.goto('/indexeddb.html');
  await expect(page.locator('#status')).toHaveText('ready');
  return page;
}

/** What a tab's work sees on `window` while `together` holds it. */
interface Held {
  waiting?: boolean;
  released?: Promise<void>;
  /** Tells the other tab that this tab's run has started. */
  sayStarted?: () => void;
  /** Settles once the other tab has said its run started: a run that waits for it before its last step overlaps the other tab's run by construction, not by how fast its first steps finish. */
  otherStarted?: Promise<void>;
}

/** Starts `work` in every tab, then releases them all with one BroadcastChannel message, so their store calls overlap. */
async function together<A, R>(tabs: Page[], args: A[], work: (arg: A) => Promise<R>): Promise<R[]> {
  // Each tab listens before its work starts; the work says it is waiting, then awaits the release.
  for (const tab of tabs) {
    await tab.evaluate(() => {
      (window as Held).released = new Promise<void>((resolve) => {
        const channel = new BroadcastChannel('start');
        channel.onmessage = () => {
          channel.close();
          resolve();
        };
      });
      const started = new BroadcastChannel('started');
      (window as Held).sayStarted = () => started.postMessage('started');
      (window as Held).otherStarted = new Promise<void>((resolve) => {
        started.onmessage = () => resolve();
      });
    });
  }
  // Playwright types an argument by what survives structured cloning; the plain JSON passed here survives whole.
  const runs = tabs.map((tab, i) => tab.evaluate(work as (arg: unknown) => Promise<R>, args[i]));
  for (const tab of tabs) await tab.waitForFunction(() => (window as Held).waiting);
  await tabs[0]?.evaluate(() => new BroadcastChannel('start').postMessage('go'));
  return Promise.all(runs) as Promise<R[]>;
}

/** One tab's share of the race: each query searched, then a prepare round over the history so far. */
async function searchAndPrepare(arg: {
  sessionId: string;
  tools: unknown[];
  queries: string[];
  parallel: boolean;
}): Promise<TabRun> {
  const { createToolSearch, SEARCH_TOOL_NAME } = window.toolSearchLayer;
  const { createIndexedDbStore } = window.toolSearchIndexedDb;
  // Held until every tab is here (see `together`); the last query waits for the other tab's start (see `Held.otherStarted`).
  (window as Held).waiting = true;
  await (window as Held).released;
  const warnings: string[] = [];
  const layer = createToolSearch({
    store: createIndexedDbStore(),
    maxDiscoveredKeep: 0,
    logger: { warn: (m) => warnings.push(m) },
  });
  const context = { sessionId: arg.sessionId, tools: arg.tools as never[] };
  const started = performance.timeOrigin + performance.now();
  const found: string[] = [];
  const one = async (query: string, i: number, messages: unknown[]) => {
    const args = { query, limit: 2 };
    const result = await layer.search(context, args);
    if ('tools' in result) found.push(...result.tools.map((t) => t.name));
    const id = `${arg.queries[0]}-${i}`;
    messages.push(
      { role: 'user', content: query },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id, name: SEARCH_TOOL_NAME, arguments: JSON.stringify(args) }],
      },
      { role: 'tool', toolCallId: id, content: JSON.stringify(result) },
    );
    await layer.prepare({ ...context, messages: messages as never[] });
  };
  if (arg.parallel) {
    const all = arg.queries.slice(0, -1).map((query, i) => one(query, i, []));
    (window as Held).sayStarted?.();
    await (window as Held).otherStarted;
    const last = arg.queries.length - 1;
    await Promise.all([...all, one(arg.queries[last] as string, last, [])]);
  } else {
    const history: unknown[] = [];
    for (const [i, query] of arg.queries.entries()) {
      if (i === arg.queries.length - 1) {
        (window as Held).sayStarted?.();
        await (window as Held).otherStarted;
      }
      await one(query, i, history);
    }
  }
  return { found, started, ended: performance.timeOrigin + performance.now(), warnings };
}

/** What a fresh layer in this tab exposes for the session: the store's view after a reload. */
function discoveredIn(tab: Page, sessionId: string): Promise<string[]> {
  return tab.evaluate(
    async ({ sessionId, tools }) => {
      const { createToolSearch } = window.toolSearchLayer;
      const { createIndexedDbStore } = window.toolSearchIndexedDb;
      const layer = createToolSearch({ store: createIndexedDbStore(), maxDiscoveredKeep: 0 });
      const round = await layer.prepare({ sessionId, tools: tools as never[] });
      return [...round.discovered];
    },
    { sessionId, tools: catalogue as unknown[] },
  );
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

for (const parallel of [false, true]) {
  const shape = parallel ? 'every search at once' : 'search, then prepare, in turn';
  test(`two tabs, one session, different tools at the same moment (${shape}): nothing lost after a reload`, async ({
    context,
  }) => {
    const problems: string[] = [];
    const tabs = [await openTab(context, problems), await openTab(context, problems)];
    const [first, second] = tabs as [Page, Page];
    const sessionId = `race-${parallel ? 'parallel' : 'turns'}`;
    const queries = [
      ['email', 'weather forecast', 'stock price', 'translate'],
      ['file', 'calendar event', 'currency', 'directory'],
    ];
    const runs = await together(
      tabs,
      queries.map((q) => ({ sessionId, tools: catalogue as unknown[], queries: q, parallel })),
      searchAndPrepare,
    );
    const [a, b] = runs as [TabRun, TabRun];
    expect(a.started < b.ended && b.started < a.ended, 'the two tabs ran at the same time').toBe(true);
    expect(a.warnings, 'no tab fell back to memory').toEqual([]);
    expect(b.warnings).toEqual([]);
    expect(a.found).toEqual(expect.arrayContaining(['send_email']));
    expect(b.found).toEqual(expect.arrayContaining(['read_file']));
    const everything = sorted([...a.found, ...b.found]);
    expect(everything.length).toBeGreaterThanOrEqual(8);

    await first.reload();
    await expect(first.locator('#status')).toHaveText('ready');
    expect(sorted(await discoveredIn(first, sessionId))).toEqual(everything);
    expect(sorted(await discoveredIn(second, sessionId))).toEqual(everything);
    expect(problems, 'errors in the tabs').toEqual([]);
  });
}

/** One tab's share of the shared-value race: `times` additive credits to one key, all at once. */
async function addCredits(arg: {
  key: string;
  term: string;
  times: number;
}): Promise<{ started: number; ended: number }> {
  // Each tab sends its second half only once the other tab has started (see `Held.otherStarted`).
  (window as Held).waiting = true;
  await (window as Held).released;
  const shared = window.toolSearchIndexedDb.createIndexedDbStore().shared as SharedSpace;
  const started = performance.timeOrigin + performance.now();
  const credit = (current: unknown) => {
    const credits = (current ?? {}) as Record<string, number>;
    return { ...credits, [arg.term]: (credits[arg.term] ?? 0) + 1, total: (credits.total ?? 0) + 1 };
  };
  const add = (count: number) => Array.from({ length: count }, () => shared.update(arg.key, credit));
  const firstHalf = add(Math.ceil(arg.times / 2));
  (window as Held).sayStarted?.();
  await (window as Held).otherStarted;
  await Promise.all([...firstHalf, ...add(Math.floor(arg.times / 2))]);
  return { started, ended: performance.timeOrigin + performance.now() };
}

test('two tabs add to one shared value at the same moment: no credit lost or doubled after a reload', async ({
  context,
}) => {
  const problems: string[] = [];
  const tabs = [await openTab(context, problems), await openTab(context, problems)];
  const [first, second] = tabs as [Page, Page];
  const key = 'learn:app';
  const [a, b] = (await together(
    tabs,
    ['email', 'weather'].map((term) => ({ key, term, times: 20 })),
    addCredits,
  )) as [{ started: number; ended: number }, { started: number; ended: number }];
  expect(a.started < b.ended && b.started < a.ended, 'the two tabs ran at the same time').toBe(true);
  await first.reload();
  await expect(first.locator('#status')).toHaveText('ready');
  const read = (tab: Page) =>
    tab.evaluate((key) => (window.toolSearchIndexedDb.createIndexedDbStore().shared as SharedSpace).get(key), key);
  expect(await read(first)).toEqual({ email: 20, weather: 20, total: 40 });
  expect(await read(second)).toEqual({ email: 20, weather: 20, total: 40 });
  // A session of the same id is another record.
  expect(
    await first.evaluate((key) => window.toolSearchIndexedDb.createIndexedDbStore().get(key), key),
  ).toBeUndefined();
  expect(problems, 'errors in the tabs').toEqual([]);
});

/** A tab's layer with `learn` over IndexedDB: feeds one session (a search, then the tool called) and ranks the query. */
async function learnInTab(arg: { query: string; tool?: string; session?: string }): Promise<string[]> {
  const tools = [
    { name: 'get_weather', description: 'Current weather conditions for a city' },
    { name: 'get_forecast', description: 'Weather forecast for the next days' },
    { name: 'send_email', description: 'Send an email message' },
    { name: 'read_inbox', description: 'List the newest messages' },
    { name: 'create_event', description: 'Create a calendar event' },
    { name: 'calculator', description: 'Evaluate an arithmetic expression' },
  ];
  const store = window.toolSearchIndexedDb.createIndexedDbStore({ dbName: 'learn-reload' });
  const layer = window.toolSearchLayer.createToolSearch({ store, learn: true });
  if (arg.tool && arg.session) {
    const messages = [
      { role: 'user' as const, content: arg.query },
      {
        role: 'assistant' as const,
        toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query: arg.query }) }],
      },
      { role: 'tool' as const, toolCallId: 's', content: '{"tools":[]}' },
      { role: 'assistant' as const, toolCalls: [{ id: 'c', name: arg.tool, arguments: '{}' }] },
      { role: 'tool' as const, toolCallId: 'c', content: 'ok' },
    ];
    await layer.prepare({ sessionId: arg.session, tools, messages });
    // The round wrote its credit in the background; this tab's next layer reads IndexedDB afresh.
    await layer.flush();
  }
  const result = (await layer.search({ sessionId: 'ask', tools }, { query: arg.query })) as unknown as {
    tools: { name: string }[];
  };
  return result.tools.map((tool) => tool.name);
}

test('what sessions taught the ranking outlives a reload of the tab', async ({ context }) => {
  const problems: string[] = [];
  const tab = await openTab(context, problems);
  expect(await tab.evaluate(learnInTab, { query: 'umbrella' })).toEqual([]);
  for (const session of ['a', 'b', 'c'])
    await tab.evaluate(learnInTab, { query: 'umbrella', tool: 'get_forecast', session });
  expect(await tab.evaluate(learnInTab, { query: 'umbrella' })).toEqual(['get_forecast']);
  await tab.reload();
  await expect(tab.locator('#status')).toHaveText('ready');
  expect(await tab.evaluate(learnInTab, { query: 'umbrella' })).toEqual(['get_forecast']);
  expect(problems, 'errors in the tab').toEqual([]);
});
