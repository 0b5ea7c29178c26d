/* eslint-disable react-hooks/rules-of-hooks -- Playwright fixtures call `use`, not React. */
import { test as base, type BrowserContext, type Page } from '@playwright/test';
import { launchBrowser } from './support/browser';
import { CLIP, hasClip } from './support/media';
import { type Stack, startStack } from './support/stack';

type WorkerFixtures = { stack: Stack; browserContext: BrowserContext };
type TestFixtures = { page: Page };

/**
 * One real stack (web + worker on a fresh DATA_DIR) and one Debian Chromium profile for the
 * whole run; specs share them in order (workers: 1), so the first account is the admin.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack();
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  browserContext: [
    async ({ stack }, use) => {
      const browser = await launchBrowser({ baseURL: stack.url });
      await use(browser.context);
      await browser.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  page: async ({ browserContext }, use) => {
    const page = await browserContext.newPage();
    await use(page);
    await page.close();
  },
});

export { expect } from '@playwright/test';

/**
 * A describe block whose tests need the test clip: skipped, naming the missing file, without it.
 */
export function describeWithClip(title: string, body: () => void): void {
  test.describe(title, () => {
    test.skip(!hasClip, `test clip missing: ${CLIP} (../shared/testdata)`);
    body();
  });
}
