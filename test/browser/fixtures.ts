// The `test` every browser spec imports: its `page` has the fixture page loaded with the
// package on `window.toolSearchLayer`, and the test fails on any uncaught error or
// console.error in the page, so a broken import cannot pass as an empty run.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    await page.goto('/');
    await expect(page.locator('#status')).toHaveText('ready');
    await use(page);
    expect(problems, 'errors in the page').toEqual([]);
  },
});

export { expect };
