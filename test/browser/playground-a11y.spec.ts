// Every main state of the playground at 1,280 and at 375 px: axe-core finds no serious or critical violation,
// nothing scrolls sideways (scrollWidth <= clientWidth), and a screenshot lands in test-results/playground/ for a
// person to look at. Then every control is reached with the Tab key alone.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { check, PLAYGROUND, ready, WIDTHS } from './playground-helpers.ts';

test.use(PLAYGROUND);
// axe walks every node of a long page on a shared machine: a scan takes seconds, and a test makes three.
test.setTimeout(240_000);

const openAll = (page: Page) =>
  page.evaluate(() => {
    for (const details of document.querySelectorAll('details')) details.open = true;
  });

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('first visit, own catalogue problems, scored queries', async ({ page }) => {
      await check(page, 'a11y-1-first-visit');
      await page.locator('#own summary').click();
      await page.fill(
        '#own-text',
        '[{"name": "a_rather_long_tool_name_that_must_wrap_somewhere_on_a_phone"}, {"nom": 1}]',
      );
      await page.click('#own-apply');
      await ready(page);
      await expect(page.locator('#own-result .problems li')).toHaveCount(1);
      await check(page, 'a11y-2-own-problems');
      await page.click('#run-queries');
      await ready(page);
      await expect(page.locator('.scores')).toBeVisible();
      await check(page, 'a11y-3-queries-scored');
    });

    test('a search with paging and bad arguments, then the whole script in mode bridge', async ({ page }) => {
      await page.goto('/?delay=20');
      await ready(page);
      await page.click('#search button[type=submit]');
      await ready(page);
      await page.locator('details.raw summary').click();
      await page.click('#send-raw');
      await ready(page);
      await check(page, 'a11y-4-search-bad-arguments');
      await page.click('#clear-session');
      await ready(page);
      await page.selectOption('#provider', 'anthropic');
      await ready(page);
      await page.check('#modes input[value=bridge]');
      await ready(page);
      await page.click('#script-play');
      await expect(page.locator('#script-steps li.done')).toHaveCount(5);
      await ready(page);
      await openAll(page);
      await check(page, 'a11y-5-script-done-bridge');
      await page.check('#modes input[value=native]');
      await ready(page);
      await check(page, 'a11y-6-anthropic-native');
    });

    test('IndexedDB restored after a reload, an invalid option', async ({ page }) => {
      await page.check('#store-indexeddb');
      await ready(page);
      await page.click('#script-step');
      await ready(page);
      await page.reload();
      await ready(page);
      await expect(page.locator('#store-note')).toContainText('Restored');
      await page.fill('[name=maxSearchResults]', '-3');
      await page.locator('[name=maxSearchResults]').blur();
      await expect(page.locator('#options-error')).toBeVisible();
      await check(page, 'a11y-7-restored-invalid-option');
    });
  });
}

test('every control is reached with the Tab key', async ({ page }) => {
  await page.click('#script-step');
  await ready(page);
  await page.click('#search button[type=submit]');
  await ready(page);
  await openAll(page);
  const controls = await page
    .locator('input:visible, select:visible, textarea:visible, button:visible:enabled, summary:visible')
    .evaluateAll((elements) => elements.map((e, i) => e.id || `${e.tagName}#${i}`));
  // Mark every control, then Tab through the page and collect the marks met.
  await page.evaluate(() => {
    const all = document.querySelectorAll('input, select, textarea, button, summary');
    all.forEach((e, i) => {
      e.setAttribute('data-tab', e.id || `${e.tagName}#${i}`);
    });
  });
  const reached = new Set<string>();
  await page.locator('body').focus();
  for (let i = 0; i < 400 && reached.size < controls.length; i++) {
    await page.keyboard.press('Tab');
    const mark = await page.evaluate(() => document.activeElement?.getAttribute('data-tab'));
    if (mark) reached.add(mark);
  }
  const visibleMarks = await page
    .locator('input:visible, select:visible, textarea:visible, button:visible:enabled, summary:visible')
    .evaluateAll((elements) => elements.map((e) => e.getAttribute('data-tab') as string));
  // Radio groups take one Tab stop each (arrow keys move within): count each group once.
  const radios = await page.locator('input[type=radio]').evaluateAll((r) => r.map((e) => e.getAttribute('data-tab')));
  const missing = visibleMarks.filter((m) => !reached.has(m) && !radios.includes(m));
  expect(missing).toEqual([]);
});
