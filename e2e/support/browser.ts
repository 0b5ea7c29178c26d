import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, expect, type Page } from '@playwright/test';
import { QUIET_CHROMIUM } from '../../tests/support/chromium';

// launch() rejects user-data-dir, so each run gets a fresh persistent profile.

export async function launchBrowser({
  baseURL,
  args = [],
}: { baseURL?: string; args?: string[] } = {}): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...QUIET_CHROMIUM, ...args],
    baseURL,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * page.goto that retries when the navigation is aborted: `next dev` reloads open pages after it
 * compiles a new route, which can cut a navigation short.
 */
export async function gotoSettled(page: Page, url: string): Promise<void> {
  await expect(async () => {
    await page.goto(url);
  }).toPass({ timeout: 300_000 });
}
