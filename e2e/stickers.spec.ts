import fs from 'node:fs';
import path from 'node:path';
import { outputFormat } from '../engine/formats';
import { streamEntries } from '../tests/support/counted-probe';
import { describeWithClip, expect, test } from './fixtures';
import { remainingCredits, signUpWithCompletedJob } from './support/completed-job';
import { downloadAs } from './support/download';
import { screenshotPath, zipEntries } from './support/media';

/**
 * The job page's Stickers panel: a user picks two platforms on a completed job, sees each result
 * in a chat-like preview with its size against the budget, and downloads one file and the ZIP.
 * The job is made through the API (its lifecycle has its own tests); the account signs up here.
 */
describeWithClip('stickers from the job page', () => {
  test(
    'makes Telegram emoji and Slack stickers of a completed job, ' +
      'previews them and downloads them',
    async ({ page, stack }) => {
      const { headers, jobId } = await signUpWithCompletedJob(page, stack, 'stickers');
      // The image-to-video flow is reachable from the new-job page.
      await page.goto('/jobs/new');
      await page.getByRole('link', { name: 'From an image' }).click();
      await expect(page).toHaveURL(/\/jobs\/new\/image$/);

      await page.goto(`/jobs/${jobId}`);
      const panel = page
        .getByRole('heading', { name: 'Stickers' })
        .locator('xpath=ancestor::*[contains(@class, "rounded")][1]');
      await expect(panel.getByRole('link', { name: /Download all stickers/ })).toHaveCount(0);
      await panel.getByRole('checkbox', { name: /telegram_emoji_v1/ }).check();
      await panel.getByRole('checkbox', { name: /slack_gif_v1/ }).check();
      await panel.getByRole('button', { name: 'Make stickers' }).click();
      await expect(
        panel.getByRole('status').filter({ hasText: '2 stickers are being made' }),
      ).toBeVisible();

      const stickers = panel.getByRole('list', { name: 'Stickers' });
      await expect(stickers.getByText('Fits', { exact: true })).toHaveCount(2, {
        timeout: 180_000,
      });
      // Each result shows in a chat bubble with its size against its budget; the previews load.
      await expect(stickers.getByTestId('sticker-chat')).toHaveCount(2);
      for (const format of ['telegram_emoji_v1', 'slack_gif_v1'] as const) {
        const budget = outputFormat(format).sticker!.budgetBytes;
        const meter = stickers.getByRole('meter').and(page.locator(`[aria-valuemax="${budget}"]`));
        await expect(meter).toHaveCount(1);
        expect(Number(await meter.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(budget);
      }
      await expect(stickers.getByRole('img', { name: /Slack/ })).toHaveJSProperty('complete', true);
      expect(
        await stickers
          .getByRole('img', { name: /Slack/ })
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBe(128);
      await expect
        .poll(() => stickers.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), {
          timeout: 30_000,
        })
        .toBeGreaterThanOrEqual(2);
      await panel.screenshot({ path: screenshotPath('21-job-stickers') });

      // One file: the Slack GIF, probed.
      const slackCard = stickers.getByRole('listitem').filter({ hasText: 'Slack' });
      const gif = await downloadAs(
        page,
        slackCard.getByRole('link', { name: /Download/ }),
        'sticker-slack.gif',
      );
      expect(await streamEntries(gif, 'stream=codec_name,width,height')).toEqual([
        { codec_name: 'gif', width: 128, height: 128 },
      ]);
      expect(fs.statSync(gif).size).toBeLessThanOrEqual(
        outputFormat('slack_gif_v1').sticker!.budgetBytes,
      );

      // All of them as a ZIP: one file per sticker.
      const link = panel.getByRole('link', { name: /Download all stickers/ });
      const entries = await zipEntries(await downloadAs(page, link, 'stickers.zip'));
      expect(entries.map((e) => path.extname(e.name)).sort()).toEqual(['.gif', '.webm']);
      for (const e of entries) expect(e.bytes).toBeGreaterThan(0);

      // Stickers are free, like every export: the 10 credits minus the 2 the job cost.
      expect(await remainingCredits(page, headers)).toBe(8);
    },
  );
});
