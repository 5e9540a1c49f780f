// The playground (demo/) in real Chromium, as a visitor uses it: pick a catalogue, search as the
// model, prepare the next round, call a found tool, send bad arguments, clear the session.
// The shared fixture loads '/' and waits for #status "ready"; here '/' is the playground's server
// (playwright.config.ts), and the fixture still fails the test on any page error.
// Screenshots go to test-results/playground/ for a human to look at.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

test.use({
  baseURL: `http://127.0.0.1:${process.env.PLAYGROUND_TEST_PORT}`,
  viewport: { width: 1440, height: 1000 },
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/playground/${name}.png`, fullPage: true });

const ready = (page: Page) => expect(page.locator('#status')).toHaveText('ready');
const tokens = async (page: Page, id: string) => Number(await page.locator(id).getAttribute('data-tokens'));
const exposedNames = (page: Page) => page.locator('#exposed .tool-name').allTextContents();

test('search, next round, call, bad arguments, clear', async ({ page }) => {
  await page.selectOption('#catalogue', 'mcp-npm-capture');
  await expect(page.locator('#catalogue-stats')).toContainText('79 tools · 5 groups');
  await ready(page);
  expect(await exposedNames(page)).toEqual(['search_tools']);
  // Counts appear once the tokenizer has loaded in the background.
  await expect(page.locator('#full-tokens')).toHaveAttribute('data-tokens', /^\d+$/);
  await shot(page, '1-first-round');

  await page.fill('#query', 'take a screenshot of the page');
  await page.click('#search button[type=submit]');
  await ready(page);
  const result = JSON.parse((await page.locator('#result-json').textContent()) ?? '{}');
  const found: string[] = result.tools.map((t: { name: string }) => t.name);
  expect(found[0]).toBe('browser_take_screenshot');
  expect(found.length).toBe(5);
  await expect(page.locator('#history > li')).toHaveCount(2);
  await expect(page.locator('#next-page')).toBeVisible();

  await page.click('#next-round');
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('Round 2');
  expect(await exposedNames(page)).toEqual(['search_tools', ...found]);
  await expect(page.locator('#discovered .chip')).toHaveText(found);
  const exposed = await tokens(page, '#exposed-tokens');
  const full = await tokens(page, '#full-tokens');
  expect(exposed).toBeGreaterThan(0);
  expect(exposed).toBeLessThan(full / 2);
  await page.locator('#exposed .search-tool summary').click();
  await expect(page.locator('#exposed pre.description')).toContainText('browser_take_screenshot');
  await shot(page, '2-after-search');

  // Calling the oldest discovered tool makes it the most recent in the store's order.
  await page
    .locator('#exposed li', { hasText: found[0] as string })
    .getByRole('button', { name: 'call' })
    .click();
  await page.click('#next-round');
  await ready(page);
  await expect(page.locator('#round-title')).toHaveText('Round 3');
  await expect(page.locator('.facts dd').nth(2).locator('.chip').last()).toHaveText(found[0] as string);

  await page.locator('details.raw summary').first().click();
  await page.fill('#raw-args', '{"query": 42}');
  await page.click('#send-raw');
  await ready(page);
  await expect(page.locator('#result-summary .error')).toContainText('"query" must be a string');
  await shot(page, '3-bad-arguments');

  await page.click('#clear-session');
  await ready(page);
  expect(await exposedNames(page)).toEqual(['search_tools']);
  await expect(page.locator('#discovered')).toHaveText('none yet');
  await expect(page.locator('#history > li')).toHaveText('Empty: no call yet.');
});

test('the largest catalogue, with groups enabled and Chinese texts', async ({ page }) => {
  await page.selectOption('#catalogue', 'bfcl');
  await expect(page.locator('#catalogue-stats')).toContainText('1,703 tools');
  await ready(page);
  await page
    .locator('#groups label', { hasText: /^ ?simple/ })
    .first()
    .locator('input')
    .check();
  await page.selectOption('select[name=locale]', 'zh');
  await ready(page);
  await page.click('#search button[type=submit]');
  await ready(page);
  await expect(page.locator('#result-summary .hint')).toContainText('共匹配');
  await page.click('#next-round');
  await ready(page);
  expect((await exposedNames(page)).length).toBe(6);
  await shot(page, '4-bfcl-zh');
});
