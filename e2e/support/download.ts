import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ARTIFACTS } from './media';

/** Clicks `link`, saves the download it starts as `name` in the artifacts folder; its path. */
export async function downloadAs(page: Page, link: Locator, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = path.join(ARTIFACTS, name);
  await download.saveAs(file);
  return file;
}
