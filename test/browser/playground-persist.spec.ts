// The store switch: with IndexedDB the session's discovered set (in IndexedDB, through tool-search-layer/indexeddb)
// and its history survive a reload, and the page says so; with memory a reload starts over.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

/** The record the IndexedDB store keeps for a session, read straight from the database. */
const stored = (page: Page, sessionId: string) =>
  page.evaluate(
    (id) =>
      new Promise<{ order?: string[] } | undefined>((resolve, reject) => {
        const open = indexedDB.open('tool-search-layer-playground');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('discovered').objectStore('discovered').get(id);
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error);
        };
      }),
    sessionId,
  );

test('with IndexedDB the session and its discovered set survive a reload', async ({ page }) => {
  // These steps show mode tools; the page starts in the adapter's default (bridge).
  await page.check('#modes input[value=tools]');
  await ready(page);
  await page.check('#store-indexeddb');
  await ready(page);
  await expect(page.locator('#store-note')).toContainText('survives a reload');
  await page.fill('#session-id', 'persisted');
  await page.locator('#session-id').blur();
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  // "create pull request" names create_pull_request: the search returns it alone, and it is discovered.
  const discovered = await page.locator('#usable li[data-via=block] .kind.discovered').count();
  expect(discovered).toBe(1);
  expect((await stored(page, 'persisted'))?.order).toEqual(['create_pull_request']);

  await page.reload();
  await ready(page);
  await expect(page.locator('#store-indexeddb')).toBeChecked();
  await expect(page.locator('#session-id')).toHaveValue('persisted');
  await expect(page.locator('#store-note')).toContainText(
    'Restored session “persisted” after the reload: 1 discovered tool from IndexedDB, 3 messages.',
  );
  await expect(page.locator('#history > li')).toHaveCount(3);
  await expect(page.locator('#usable li .kind.discovered')).toHaveCount(1);
  await expect(page.locator('#script-steps li.done')).toHaveCount(2);
  await shot(page, 'restored');

  // The script goes on where it stopped.
  await page.click('#script-step');
  await ready(page);
  await expect(page.locator('#script-steps li.done')).toHaveCount(3);
});

test('with memory a reload starts over', async ({ page }) => {
  await page.click('#script-step');
  await ready(page);
  await page.click('#script-step');
  await ready(page);
  await page.reload();
  await ready(page);
  await expect(page.locator('#store-memory')).toBeChecked();
  await expect(page.locator('#store-note')).toHaveText(
    'Memory: the session lives in this page only; a reload starts it over.',
  );
  await expect(page.locator('#history > li')).toHaveText('Empty: nothing said yet.');
  await expect(page.locator('#round-title')).toHaveText('No round yet');
});
