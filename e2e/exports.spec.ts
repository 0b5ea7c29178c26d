import { streamEntries } from '../tests/support/counted-probe';
import { describeWithClip, expect, test } from './fixtures';
import { remainingCredits, signUpWithCompletedJob } from './support/completed-job';
import { downloadAs } from './support/download';
import { screenshotPath } from './support/media';

/**
 * The job page's Exports panel: another format of a completed job, made from its stored mask
 * and downloaded, without leaving the page. The job itself is made through the API (that
 * lifecycle has its own tests); the account signs up through the page.
 */
describeWithClip('exports from the job page', () => {
  test('adds a mask export to a completed job and downloads it', async ({ page, stack }) => {
    const { headers, jobId } = await signUpWithCompletedJob(page, stack, 'exports');

    await page.goto(`/jobs/${jobId}`);
    const panel = page
      .getByRole('heading', { name: 'Exports' })
      .locator('xpath=ancestor::*[contains(@class, "rounded")][1]');
    await page.getByLabel('Format').selectOption('mask_video');
    // Masks keep the original size: the widths field says so and takes nothing.
    await expect(page.getByLabel('Widths (optional)')).toBeDisabled();
    await page.getByRole('button', { name: 'Add export' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'One export added' })).toBeVisible();
    const exports = page.getByRole('list', { name: 'Exports' });
    await expect(exports.getByText('Ready')).toBeVisible({ timeout: 120_000 });
    await expect(exports).toContainText('Mask only');
    await panel.screenshot({ path: screenshotPath('20-job-exports') });

    const link = exports.getByRole('link', { name: /Download/ });
    const file = await downloadAs(page, link, 'export-mask.mp4');
    expect(await streamEntries(file, 'stream=codec_name,width,height')).toEqual([
      { codec_name: 'h264', width: 512, height: 512 },
    ]);
    // Exports are free: the 10 credits minus the 2 the job cost.
    expect(await remainingCredits(page, headers)).toBe(8);
  });
});
