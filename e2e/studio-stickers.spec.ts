import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fromLavfi } from '../lib/media/fixtures';
import type { Page } from '@playwright/test';
import { outputFormat, STICKER_FORMATS } from '../engine/formats';
import { lookAtSticker, stickerProblems } from '../tests/support/sticker-file';
import { expect, test as shared } from './fixtures';
import { launchBrowser } from './support/browser';
import { checkBothWidths, watchApiRequests } from './support/checks';
import {
  alphaRange,
  ARTIFACTS,
  CLIP,
  clipCut,
  cornerColour,
  hasClip,
  screenshotPath,
  streamCodecs,
  zipEntries,
} from './support/media';

/** A profile of its own, so these runs stay out of the studio history that studio.spec checks. */
const test = shared.extend({
  page: async ({ stack }, use) => {
    const browser = await launchBrowser({ baseURL: stack.url });
    // eslint-disable-next-line react-hooks/rules-of-hooks -- Playwright's fixture `use`, not React.
    await use(await browser.context.newPage());
    await browser.close();
  },
});

/**
 * A studio run of `clip` with the people model, as a WebM on the picked `image` (and the cut-out
 * beside it).
 */
async function runStudio(page: Page, clip: string, image: string) {
  await page.goto('/studio');
  await page.locator('input[type=file]').first().setInputFiles(clip);
  await page.getByLabel('Model').selectOption('service-human');
  await page.getByLabel('Result').selectOption('webm');
  await page.getByRole('radio', { name: 'Image' }).check();
  await expect(page.getByRole('button', { name: 'Remove background' })).toBeDisabled();
  await page.getByLabel('Background image').setInputFiles(image);
  await page.getByRole('button', { name: 'Remove background' }).click();
  await expect(page.getByRole('link', { name: /^Download WebM/ })).toBeVisible({
    timeout: 280_000,
  });
}

async function save(page: Page, link: ReturnType<Page['getByRole']>, dir: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/**
 * The studio's stickers and animations: made in this tab by ffmpeg.wasm (and WebCodecs for
 * VP9) from the run's cut-out, with the same ladder and budgets as the server, each file
 * checked by the same independent look as the server's, and not one request to the API. One
 * run on one second of the clip serves every check, to keep CI short; the ladder and the checks
 * are the same for any length.
 */
test.describe('studio stickers and formats, nothing uploaded', () => {
  test.skip(!hasClip, `test clip missing: ${CLIP} (../shared/testdata)`);
  test.beforeEach(({ page }) => {
    page.on('pageerror', (e) => console.log(`[uncaught in page] ${e.message}`));
  });

  test(
    'a WebM with sound on a picked image, every sticker format ' +
      'passing the server’s checks, WebP and a PNG sequence',
    async ({ page }) => {
      test.setTimeout(25 * 60_000);
      const dir = fs.mkdtempSync(path.join(ARTIFACTS, 'studio-stickers-'));
      const clip = await clipCut(1);
      const image = path.join(dir, 'cyan.png');
      await fromLavfi(image, 'color=c=0x00ffff:s=320x180', ['-frames:v', '1']);
      const api = watchApiRequests(page);
      await runStudio(page, clip, image);

      // The opaque WebM: VP9 with the sound as Opus, the picked image behind the subject.
      await expect(page.getByTestId('studio-result-kind')).toHaveText(
        'VP9 WebM, with the sound (Opus).',
      );
      const webm = await save(page, page.getByRole('link', { name: /^Download WebM/ }), dir);
      expect(streamCodecs(webm)).toEqual({ video: ['vp9'], audio: ['opus'] });
      const corner = cornerColour(webm);
      expect([...corner].map((v) => Math.round(v / 32))).toEqual([0, 8, 8]);
      // The cut-out beside it: transparent, with the same sound. Stickers and formats come from it.
      const cutout = await save(
        page,
        page.getByRole('link', { name: /Download the transparent WebM/ }),
        dir,
      );
      expect(path.basename(cutout)).toBe('studio-clip-1s-keyout-transparent.webm');
      expect(streamCodecs(cutout)).toEqual({ video: ['vp9'], audio: ['opus'] });
      expect(alphaRange(cutout).min).toBeLessThan(16);

      const stickers = page.getByTestId('studio-stickers');
      for (const format of STICKER_FORMATS)
        await page.getByRole('checkbox', { name: new RegExp(format) }).check();
      await page.getByRole('button', { name: 'Make stickers' }).click();
      await expect(page.getByTestId('studio-stickers-progress')).toBeVisible();
      await expect(stickers.getByRole('listitem')).toHaveCount(STICKER_FORMATS.length, {
        timeout: 18 * 60_000,
      });
      await expect(page.getByTestId('studio-stickers-progress')).toHaveCount(0, {
        timeout: 60_000,
      });
      await expect(stickers.getByText('Fits')).toHaveCount(STICKER_FORMATS.length);
      await page.screenshot({ path: screenshotPath('44-studio-stickers'), fullPage: true });
      await checkBothWidths(page, '44-studio-stickers');

      const sizes = new Map<string, number>();
      for (const format of STICKER_FORMATS) {
        const policy = outputFormat(format).sticker!;
        const file = await save(
          page,
          stickers.locator(`[data-format=${format}]`).getByRole('link', { name: /Download/ }),
          dir,
        );
        expect(path.basename(file)).toBe(
          `studio-clip-1s-keyout-${format}.${outputFormat(format).extension}`,
        );
        const seen = await lookAtSticker(file, policy.codec.codec, dir);
        expect(stickerProblems(seen, policy, 1), format).toEqual([]);
        // The page states the size the file has, against the same budget.
        await expect(
          stickers.locator(`[data-format=${format}]`).getByRole('meter'),
        ).toHaveAttribute('aria-valuenow', String(seen.bytes));
        await expect(
          stickers.locator(`[data-format=${format}]`).getByRole('meter'),
        ).toHaveAttribute('aria-valuemax', String(policy.budgetBytes));
        sizes.set(path.basename(file), seen.bytes);
      }
      const zip = await save(
        page,
        page.getByRole('button', { name: 'Download all stickers (ZIP)' }),
        dir,
      );
      expect(path.basename(zip)).toBe('studio-clip-1s-keyout-stickers.zip');
      expect(Object.fromEntries((await zipEntries(zip)).map((e) => [e.name, e.bytes]))).toEqual(
        Object.fromEntries(sizes),
      );

      // Full-size formats: APNG and GIF run the same encoders as the APNG and GIF stickers above,
      // so WebP (the studio's only animated WebP at full size) and the PNG sequence are made here.
      for (const label of ['Animated WebP', 'PNG sequence (ZIP of RGBA frames)'])
        await page.getByRole('checkbox', { name: label }).check();
      await page.getByRole('button', { name: 'Make', exact: true }).click();
      const made = page.getByTestId('studio-formats');
      await expect(made.getByRole('listitem')).toHaveCount(2, { timeout: 8 * 60_000 });
      await expect(made.getByRole('link'), await made.innerText()).toHaveCount(2);
      await page.screenshot({ path: screenshotPath('45-studio-formats'), fullPage: true });
      const webp = await save(page, made.getByRole('link', { name: /Download WEBP/ }), dir);
      const info = execFileSync('webpmux', ['-info', webp], { encoding: 'utf8' });
      expect(info).toMatch(/Features present: animation transparency/);
      const frames = await zipEntries(
        await save(page, made.getByRole('link', { name: /Download ZIP/ }), dir),
      );
      expect(frames.length).toBeGreaterThan(20);
      expect(frames[0]!.name).toBe('frame_000001.png');
      expect(api.requests(), 'requests to the server').toEqual([]);
      api.stop();
    },
  );
});
