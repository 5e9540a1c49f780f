// What the playground specs share: the server, the two widths, waiting for the page, screenshots.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** `test.use` for the playground's own server (playwright.config.ts starts it) at desktop width. */
export const PLAYGROUND = {
  baseURL: `http://127.0.0.1:${process.env.PLAYGROUND_TEST_PORT}`,
  viewport: { width: 1280, height: 900 },
};

/** The widths every main state is checked at. */
export const WIDTHS = [1280, 375] as const;

/** Waits until the page's last action has finished. */
export const ready = (page: Page) => expect(page.locator('#status')).toHaveText('ready');

/** A full-page screenshot under test-results/playground/, named for the state and the width. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/playground/${name}-${page.viewportSize()?.width}.png`, fullPage: true });

/** The names in this round's tools block, in order. */
export const exposedNames = (page: Page) =>
  page.locator('#usable li:not([data-via=call]) .tool-name').allTextContents();

/** The last tool result in the history, parsed: what the model read (the page shows each result once, there). */
export async function lastToolResult(page: Page): Promise<Record<string, unknown> & { tools: { name: string }[] }> {
  const item = page.locator('#history li.tool').last();
  const folded = item.locator('pre');
  const text =
    (await folded.count()) > 0 ? await folded.textContent() : await item.locator('code.content').textContent();
  return JSON.parse(text ?? '{}');
}

/** Checks the page as it stands: axe, sideways scroll, and a screenshot named for the state. */
export async function check(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious, `axe at ${state}`).toEqual([]);
  const widths = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The elements that stick out, named, so a failure says what to fix.
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > client + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
    return { scroll: document.documentElement.scrollWidth, client, wide };
  });
  expect(widths.scroll, `sideways scroll at ${state}: ${widths.wide.join(', ')}`).toBeLessThanOrEqual(widths.client);
  await shot(page, state);
}
