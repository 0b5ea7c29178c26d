import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { launchBrowser } from './support/browser';
import { checkBothWidths } from './support/checks';
import { alphaRange, ARTIFACTS, CLIP, hasClip, screenshotPath } from './support/media';

test.describe('in-browser Studio', () => {
  test.skip(!hasClip, `test clip missing: ${CLIP} (../shared/testdata)`);

  test('runs the clip on WASM; the WebM download has real alpha', async ({ page }) => {
    await page.goto('/studio');
    // Headless Chromium here has no GPU: WebAssembly must be chosen and said so.
    await expect(page.getByTestId('studio-backend')).toContainText('WebAssembly');
    await expect(page.getByText('Nothing here yet')).toBeVisible();
    await checkBothWidths(page, '40-studio-empty');

    await page.locator('input[type=file]').setInputFiles(CLIP);
    await page.getByLabel('Model').selectOption('service-human');
    const started = Date.now();
    await page.getByRole('button', { name: 'Remove background' }).click();
    await expect(page.getByTestId('studio-progress')).toContainText(/Frame \d+ of \d+/, { timeout: 120_000 });
    await page.screenshot({ path: screenshotPath('21-studio-running'), fullPage: true });
    const download = page.getByRole('link', { name: /Download WebM/ });
    await expect(download).toBeVisible({ timeout: 280_000 });
    const wallMs = Date.now() - started;
    await page.screenshot({ path: screenshotPath('22-studio-done'), fullPage: true });

    // service-human times Robust Video Matting on this device and says which model runs and why.
    await expect(page.getByTestId('studio-model')).toHaveText(/Robust Video Matting|MediaPipe selfie/);
    await expect(page.getByTestId('studio-model-reason').first()).toContainText(/Robust Video Matting took \d+ ms a frame on this device/);
    const profile = JSON.parse((await page.getByTestId('studio-profile').getAttribute('data-profile')) ?? '{}') as Record<string, number>;
    expect(profile.frames).toBeGreaterThan(100);
    expect(profile.endToEndMs).toBeGreaterThan(0);
    const frameMs = await page.getByTestId('studio-frame-ms').textContent();
    const totalMs = await page.getByTestId('studio-total-ms').textContent();
    const stats = (await page.getByTestId('studio-stats').innerText()).split('\n');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS, 'studio-timing.json'),
      JSON.stringify({ clip: path.basename(CLIP), backend: 'wasm', model: 'service-human', perFrame: frameMs, total: totalMs, clickToDownloadMs: wallMs, stats, profile }, null, 2),
    );
    console.log(`Studio WASM: per frame ${frameMs}, run ${totalMs}, click→download ${(wallMs / 1000).toFixed(1)} s`);

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const out = path.join(ARTIFACTS, 'studio-result.webm');
    await file.saveAs(out);
    const alpha = alphaRange(out);
    expect(alpha.frames).toBeGreaterThan(100);
    expect(alpha.min).toBeLessThan(16);
    expect(alpha.max).toBeGreaterThan(240);

    // The result is kept in this browser's history, re-downloadable and deletable.
    await page.reload();
    const history = page.getByTestId('studio-history');
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await page.screenshot({ path: screenshotPath('23-studio-history'), fullPage: true });
    const [again] = await Promise.all([page.waitForEvent('download'), history.getByRole('link', { name: /Download/ }).click()]);
    expect(fs.statSync(await again.path()).size).toBe(fs.statSync(out).size);
    await history.getByRole('button', { name: /Delete/ }).click();
    await expect(page.getByText('Nothing here yet')).toBeVisible();
  });

  test('the sample clip is one click away', async ({ page }) => {
    test.skip(!fs.existsSync(path.resolve(import.meta.dirname, '..', 'public', 'sample', '.stamp')), 'the sample clip is made by npm start / npm test (scripts/setup.ts)');
    await page.goto('/');
    // The landing page plays the sample and its cut-out.
    await expect(page.getByText('A sample clip, before and after')).toBeVisible();
    await page.goto('/studio');
    await page.getByRole('button', { name: /Use the sample clip/ }).click();
    await expect(page.getByText('keyout-sample.mp4')).toBeVisible();
    await expect(page.getByLabel('Model')).toHaveValue('service-light');
    await checkBothWidths(page, '41-studio-sample-loaded');
  });

  test('WebGPU smoke test: one frame through the webgpu provider', async ({ stack }) => {
    const browser = await launchBrowser({ baseURL: stack.url, args: ['--enable-unsafe-webgpu'] });
    try {
      const page = await browser.context.newPage();
      // The smoke test is about the provider: the selfie model, as before (timing RVM on a software adapter takes minutes).
      await page.goto('/studio?backend=webgpu&people=selfie');
      await expect(page.getByTestId('studio-backend')).toContainText('WebGPU');
      await page.locator('input[type=file]').setInputFiles(CLIP);
      await page.getByRole('button', { name: 'Preview the first frame' }).click();
      await expect(page.getByTestId('studio-first-frame-info')).toContainText('webgpu', { timeout: 180_000 });
      await expect(page.getByTestId('studio-first-frame')).toBeVisible();
      await page.screenshot({ path: screenshotPath('24-studio-webgpu-first-frame'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
