// The playground's learning demo: every other query of the visitor's list is a session that searched and called its
// tools; the others are searched again with learning off and on.
import { expect, test } from './fixtures.ts';
import { check, PLAYGROUND, ready, shot } from './playground-helpers.ts';

test.use(PLAYGROUND);

test('learning from the visitor’s own queries lifts the held-out ones, shown as two bars', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await page.selectOption('#catalogue', 'mcp-github');
  await ready(page);
  // Words no tool holds: keywords alone find nothing for the second and fourth lines.
  await page.fill(
    '#queries',
    [
      'yeet my branch into main → merge_pull_request',
      'yeet it → merge_pull_request',
      'whoami → get_me',
      'whoami again please → get_me',
    ].join('\n'),
  );
  await page.click('#run-learning');
  await ready(page);
  await expect(page.locator('#learn-result')).toContainText('Learned from 2 sessions');
  await expect(page.locator('#learn-off .learn-value')).toHaveText('0%');
  await expect(page.locator('#learn-on .learn-value')).toHaveText('100%');
  await expect(page.locator('#learn-changes li')).toHaveCount(2);
  await shot(page, 'learning');
  await check(page, 'learning');

  await page.fill('#queries', 'only one line → get_me');
  await page.click('#run-learning');
  await ready(page);
  await expect(page.locator('#learn-result .error')).toContainText('at least two lines');
});
