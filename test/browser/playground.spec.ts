// The playground (demo/) in real Chromium, as a visitor uses it: switch catalogues, change every setting (one of
// them to an invalid value), search with paging and bad arguments, play the scripted session to its end with the
// charts drawn, pause and take over by hand, switch the exposure mode, clear. The fixture fails a test on any page
// error or console error. Screenshots go to test-results/playground/ for a person to look at.
import { expect, test } from './fixtures.ts';
import { exposedNames, lastToolResult, PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

test('a catalogue switch, search with paging, bad arguments, calling a found tool, clear', async ({ page }) => {
  // These steps show mode tools; the page starts in the adapter's default (bridge).
  await page.check('#modes input[value=tools]');
  await ready(page);
  await page.selectOption('#catalogue', 'mcp-npm-capture');
  await ready(page);
  await expect(page.locator('#catalogue-stats')).toContainText('79 tools · 5 groups');
  await expect(page.locator('#round-title')).toHaveText('No round yet');

  await page.fill('#query', 'take a screenshot of the page');
  await page.click('#search button[type=submit]');
  await ready(page);
  const result = await lastToolResult(page);
  const found: string[] = result.tools.map((t: { name: string }) => t.name);
  expect(found[0]).toBe('browser_take_screenshot');
  // maxSearchResults (5) is an upper bound: a first page the ranking is confident of stops early (SPEC 14).
  expect(found.length).toBeGreaterThanOrEqual(1);
  expect(found.length).toBeLessThanOrEqual(5);
  await expect(page.locator('#round-title')).toHaveText('Round 1');
  expect(await exposedNames(page)).toEqual(['search_tools', ...found]);
  await expect(page.locator('#history > li')).toHaveCount(2);
  // The event log, from the layer's onEvent: the search, then the discovery it made.
  await expect(page.locator('#events li[data-type=search]')).toHaveCount(1);
  await expect(page.locator('#events li[data-type=search]')).toContainText('found: 22');
  await expect(page.locator('#events li[data-type=discover]').first()).toContainText('source: search');

  // Paging: the next page starts where the first ended and names other tools.
  await page.click('#next-page');
  await ready(page);
  const second = (await lastToolResult(page)) as { pagination: { offset: number }; tools: { name: string }[] };
  expect(second.pagination.offset).toBe(found.length);
  expect(second.tools.length).toBeGreaterThan(0);
  for (const name of second.tools.map((t: { name: string }) => t.name)) expect(found).not.toContain(name);
  await expect(page.locator('#offset')).toHaveValue(String(found.length));
  await shot(page, 'search-paged');

  // Calling the first found tool makes it the most recent in the store's order.
  await page.locator(`#usable li[data-name="${found[0]}"]`).getByRole('button').click();
  await ready(page);
  await expect(page.locator(`#usable li[data-name="${found[0]}"] .recency`)).toHaveText('most recent');

  await page.locator('details.raw summary').click();
  await page.fill('#raw-args', '{"query": 42}');
  await page.click('#send-raw');
  await ready(page);
  await expect(page.locator('#result-summary .error')).toContainText('"query" must be a string');

  await page.click('#clear-session');
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('No round yet');
  await expect(page.locator('#history > li')).toHaveText('Empty: nothing said yet.');
  await page.click('#next-round');
  await ready(page);
  expect(await exposedNames(page)).toEqual(['search_tools']);
});

test('every setting, one of them invalid, and the groups of the largest catalogue', async ({ page }) => {
  // These steps show mode tools; the page starts in the adapter's default (bridge).
  await page.check('#modes input[value=tools]');
  await ready(page);
  await page.selectOption('#catalogue', 'bfcl');
  await ready(page);
  await expect(page.locator('#catalogue-stats')).toContainText('1,703 tools');
  await page.fill('[name=maxSearchResults]', '3');
  await page.fill('[name=maxDiscoveredKeep]', '4');
  await page.fill('[name=toolNamesBudget]', '300');
  await page.uncheck('[name=showToolNames]');
  await page.fill('[name=alwaysDirectTools]', 'calculate_triangle_area');
  await page.locator('[name=alwaysDirectTools]').blur();
  await page.selectOption('select[name=locale]', 'zh');
  await ready(page);
  await page
    .locator('#groups label', { hasText: /^ ?simple/ })
    .first()
    .locator('input')
    .check();
  // Queries that describe a task: one that names a tool word for word would get that tool alone.
  await page.fill('#query', 'area of a circle from its radius');
  await page.click('#search button[type=submit]');
  await ready(page);
  await expect(page.locator('#result-summary')).toContainText('found');
  // The zh locale's hint (it no longer repeats the count, which the result's fields say).
  expect((await lastToolResult(page)).hint).toMatch(/[\u4e00-\u9fff]/);
  const names = await exposedNames(page);
  expect(names.slice(0, 2)).toEqual(['search_tools', 'calculate_triangle_area']);
  expect(names).toHaveLength(2 + 3);
  // A second search overflows maxDiscoveredKeep (4): the oldest tools are evicted, and the log says which.
  await page.fill('#query', 'roots of a quadratic equation');
  await page.click('#search button[type=submit]');
  await ready(page);
  await expect(page.locator('#events li[data-type=evict]')).toHaveCount(1);
  expect(await page.locator('#usable li .kind.discovered').count()).toBe(4);

  // An invalid value: the library's own error beside the form, and the last valid options stay in force.
  await page.fill('[name=maxDirectTools]', '-1');
  await page.locator('[name=maxDirectTools]').blur();
  await expect(page.locator('#options-error')).toContainText('maxDirectTools');
  await expect(page.locator('#options-error')).toContainText('not applied');
  await page.click('#next-round');
  await ready(page);
  expect(await exposedNames(page)).toHaveLength(2 + 4);
  await page.fill('[name=maxDirectTools]', '5');
  await page.locator('[name=maxDirectTools]').blur();
  await expect(page.locator('#options-error')).toBeHidden();
  await shot(page, 'bfcl-settings');
});

test('the settings keep their columns whatever the notes say: a store or provider switch moves no box', async ({
  page,
}) => {
  const boxes = ['#options > fieldset:first-child', '#store', '#provider', '#modes', '.groups-box', '#session-id'];
  const columns = () =>
    Promise.all(boxes.map(async (box) => Math.round((await page.locator(box).boundingBox())?.x ?? -1)));
  const before = await columns();
  // Three columns: the layer options; the store, provider and mode; the groups and the session.
  const [options, store, provider, modes, groups, session] = before as number[];
  expect(options).toBeLessThan(store as number);
  expect(provider).toBe(store);
  expect(modes).toBe(store);
  expect(store).toBeLessThan(groups as number);
  expect(session).toBe(groups);
  // The IndexedDB note is longer than the memory one; Anthropic has more modes and a longer hint.
  await page.check('#store-indexeddb');
  await ready(page);
  await expect(page.locator('#store-note')).toContainText('IndexedDB:');
  expect(await columns()).toEqual(before);
  await shot(page, 'settings-indexeddb');
  await page.selectOption('#provider', 'anthropic');
  await ready(page);
  expect(await columns()).toEqual(before);
});
