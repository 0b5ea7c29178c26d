import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { outputFormat, STICKER_FORMATS } from '../engine/formats';
import { lookAtSticker, stickerProblems } from '../tests/support/sticker-file';
import { expect, test } from './fixtures';
import { checkBothWidths, watchApiRequests } from './support/checks';
import { alphaRange, ARTIFACTS, CLIP, clipCut, hasClip, screenshotPath, streamCodecs, zipEntries } from './support/media';

/** A studio run of `clip` with the people model, as the cut-out alone or an opaque video on a picked image. */
async function runStudio(page: Page, clip: string, result: 'cutout' | { webmOnImage: string }) {
  await page.goto('/studio');
  await page.locator('input[type=file]').first().setInputFiles(clip);
  await page.getByLabel('Model').selectOption('service-human');
  if (result !== 'cutout') {
    await page.getByLabel('Result').selectOption('webm');
    await page.getByRole('radio', { name: 'Image' }).check();
    await expect(page.getByRole('button', { name: 'Remove background' })).toBeDisabled();
    await page.getByLabel('Background image').setInputFiles(result.webmOnImage);
  }
  await page.getByRole('button', { name: 'Remove background' }).click();
  await expect(page.getByRole('link', { name: /^Download WebM/ })).toBeVisible({ timeout: 280_000 });
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
 * checked by the same independent look as the server's, and not one request to the API.
 */
test.describe('studio stickers and formats, nothing uploaded', () => {
  test.skip(!hasClip, `test clip missing: ${CLIP} (../shared/testdata)`);
  test.beforeEach(({ page }) => {
    page.on('pageerror', (e) => console.log(`[uncaught in page] ${e.message}`));
  });

  test('makes every sticker format from a real clip; each passes the server’s checks', async ({ page }) => {
    test.setTimeout(20 * 60_000);
    const dir = fs.mkdtempSync(path.join(ARTIFACTS, 'studio-stickers-'));
    const clip = clipCut(2);
    const api = watchApiRequests(page);
    await runStudio(page, clip, 'cutout');

    const stickers = page.getByTestId('studio-stickers');
    for (const format of STICKER_FORMATS) await page.getByRole('checkbox', { name: new RegExp(format) }).check();
    await page.getByRole('button', { name: 'Make stickers' }).click();
    await expect(page.getByTestId('studio-stickers-progress')).toBeVisible();
    await expect(stickers.getByRole('listitem')).toHaveCount(STICKER_FORMATS.length, { timeout: 18 * 60_000 });
    await expect(page.getByTestId('studio-stickers-progress')).toHaveCount(0, { timeout: 60_000 });
    await expect(stickers.getByText('Fits')).toHaveCount(STICKER_FORMATS.length);
    await page.screenshot({ path: screenshotPath('44-studio-stickers'), fullPage: true });
    await checkBothWidths(page, '44-studio-stickers');

    const sizes = new Map<string, number>();
    for (const format of STICKER_FORMATS) {
      const policy = outputFormat(format).sticker!;
      const file = await save(page, stickers.locator(`[data-format=${format}]`).getByRole('link', { name: /Download/ }), dir);
      expect(path.basename(file)).toBe(`studio-clip-2s-keyout-${format}.${outputFormat(format).extension}`);
      const seen = await lookAtSticker(file, policy.codec.codec, dir);
      expect(stickerProblems(seen, policy, 2), format).toEqual([]);
      // The page states the size the file has, against the same budget.
      await expect(stickers.locator(`[data-format=${format}]`).getByRole('meter')).toHaveAttribute('aria-valuenow', String(seen.bytes));
      await expect(stickers.locator(`[data-format=${format}]`).getByRole('meter')).toHaveAttribute('aria-valuemax', String(policy.budgetBytes));
      sizes.set(path.basename(file), seen.bytes);
    }
    const zip = await save(page, page.getByRole('button', { name: 'Download all stickers (ZIP)' }), dir);
    expect(path.basename(zip)).toBe('studio-clip-2s-keyout-stickers.zip');
    expect(Object.fromEntries((await zipEntries(zip)).map((e) => [e.name, e.bytes]))).toEqual(Object.fromEntries(sizes));
    expect(api.requests(), 'requests to the server').toEqual([]);
    api.stop();
  });

  test('makes animated WebP, APNG, GIF and a PNG sequence, and a WebM with sound on a picked image', async ({ page }) => {
    test.setTimeout(10 * 60_000);
    const dir = fs.mkdtempSync(path.join(ARTIFACTS, 'studio-formats-'));
    const clip = clipCut(2);
    const image = path.join(dir, 'cyan.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x00ffff:s=320x180', '-frames:v', '1', image]);
    const api = watchApiRequests(page);
    await runStudio(page, clip, { webmOnImage: image });

    // The opaque WebM: VP9 with the sound as Opus, the picked image behind the subject.
    await expect(page.getByTestId('studio-result-kind')).toHaveText('VP9 WebM, with the sound (Opus).');
    const webm = await save(page, page.getByRole('link', { name: /^Download WebM/ }), dir);
    expect(streamCodecs(webm)).toEqual({ video: ['vp9'], audio: ['opus'] });
    const corner = execFileSync('ffmpeg', ['-v', 'error', '-i', webm, '-frames:v', '1', '-vf', 'crop=16:16:16:16,scale=1:1:flags=area,format=rgb24', '-f', 'rawvideo', '-']);
    expect([...corner].map((v) => Math.round(v / 32))).toEqual([0, 8, 8]);
    // The cut-out beside it: transparent, with the same sound.
    const cutout = await save(page, page.getByRole('link', { name: /Download the transparent WebM/ }), dir);
    expect(path.basename(cutout)).toBe('studio-clip-2s-keyout-transparent.webm');
    expect(streamCodecs(cutout)).toEqual({ video: ['vp9'], audio: ['opus'] });
    expect(alphaRange(cutout).min).toBeLessThan(16);

    for (const label of ['Animated WebP', 'Animated PNG', 'GIF (hard edges)', 'PNG sequence (ZIP of RGBA frames)']) await page.getByRole('checkbox', { name: label }).check();
    await page.getByRole('button', { name: 'Make', exact: true }).click();
    const made = page.getByTestId('studio-formats');
    await expect(made.getByRole('listitem')).toHaveCount(4, { timeout: 8 * 60_000 });
    await expect(made.getByRole('link'), await made.innerText()).toHaveCount(4);
    await page.screenshot({ path: screenshotPath('45-studio-formats'), fullPage: true });

    const webp = await save(page, made.getByRole('link', { name: /Download WEBP/ }), dir);
    const info = execFileSync('webpmux', ['-info', webp], { encoding: 'utf8' });
    expect(info).toContain('Canvas size: 512 x 512');
    expect(info).toMatch(/Features present: animation transparency/);
    const apng = await save(page, made.getByRole('link', { name: /Download PNG/ }), dir);
    expect(streamCodecs(apng)).toEqual({ video: ['apng'] });
    const gif = await save(page, made.getByRole('link', { name: /Download GIF/ }), dir);
    expect(streamCodecs(gif)).toEqual({ video: ['gif'] });
    const zip = await save(page, made.getByRole('link', { name: /Download ZIP/ }), dir);
    const frames = await zipEntries(zip);
    expect(frames.length).toBeGreaterThan(45);
    expect(frames[0]!.name).toBe('frame_000001.png');
    expect(api.requests(), 'requests to the server').toEqual([]);
    api.stop();
  });
});
