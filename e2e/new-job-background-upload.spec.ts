import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cutClip, fromLavfi } from '../lib/media/fixtures';
import { describeWithClip, expect, test } from './fixtures';
import { checkBothWidths } from './support/checks';
import { signUp } from './support/completed-job';
import { ARTIFACTS, CLIP, cornerColour } from './support/media';

/**
 * A composition on an image picked from the computer (not a URL): the new-job form uploads it
 * into the job's storage at Start, the job completes, and the downloaded MP4 shows the image
 * where the person is not. The account signs up through the page and gets credits from the CLI.
 */
describeWithClip('background image upload', () => {
  test('picks a PNG as the background; the result shows it behind the person', async ({
    page,
    stack,
  }) => {
    test.setTimeout(900_000);
    const email = await signUp(page, 'bg-upload');
    execFileSync(
      process.execPath,
      ['bin/keyout.mjs', 'keys', 'create', '--email', email, '--credits', '20'],
      {
        env: { ...process.env, DATA_DIR: stack.dataDir, PUBLIC_URL: stack.url },
      },
    );

    // 64-px magenta/yellow squares: the top-left square is magenta.
    const board = path.join(ARTIFACTS, 'checkerboard.png');
    const clip = path.join(ARTIFACTS, 'bg-upload-clip.mp4');
    const text = path.join(ARTIFACTS, 'not-an-image.png');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await fromLavfi(board, 'color=c=magenta:s=512x512', [
      '-vf',
      "geq=r='if(mod(floor(X/64)+floor(Y/64),2),255," +
        "255)':g='if(mod(floor(X/64)+floor(Y/64),2),230," +
        "0)':b='if(mod(floor(X/64)+floor(Y/64),2),0,255)'",
      '-frames:v',
      '1',
    ]);
    await cutClip(CLIP, clip, 2);
    fs.writeFileSync(text, 'this is text, not a picture');

    await page.goto('/jobs/new');
    await page.locator('input[type=file]').first().setInputFiles(clip);
    await expect(page.getByText(/uploaded$/)).toBeVisible({ timeout: 60_000 });
    await page.getByLabel(/Light/).check();
    await page.locator('label', { hasText: /^Image or video$/ }).click();

    // A file that is not an image is refused under its field, and nothing is charged.
    await page.getByLabel('Or upload an image').setInputFiles(text);
    await expect(page.getByLabel('Background URL')).toBeDisabled();
    await page.getByRole('button', { name: /^Start — / }).click();
    await expect(page.locator('#bg-file-error')).toHaveText(
      'The background must be a single PNG, JPEG or WebP image.',
    );
    await expect(page.getByLabel('Or upload an image')).toBeFocused();

    await page.getByLabel('Or upload an image').setInputFiles(board);
    await expect(page.locator('#bg-file-error')).toHaveCount(0);
    await expect(page.getByTestId('job-cost')).toHaveText(/credits?$/);
    await checkBothWidths(page, '40-new-job-background-upload');
    await page.getByRole('button', { name: /^Start — / }).click();
    await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible({
      timeout: 600_000,
    });
    await expect(page.getByText('On an image · MP4 (H.264)')).toBeVisible();
    await checkBothWidths(page, '41-job-background-upload-completed');

    const href = await page
      .getByRole('link', { name: 'Download Result', exact: true })
      .getAttribute('href');
    const result = path.join(ARTIFACTS, 'bg-upload-result.mp4');
    fs.writeFileSync(result, Buffer.from(await (await page.request.get(href!)).body()));
    const still = path.join(ARTIFACTS, 'bg-upload-frame.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', result, '-frames:v', '1', still]);
    // The top-left corner of the talking-head clip is background: the magenta square shows there.
    const corner = cornerColour(result);
    const [r, g, b] = [...corner];
    expect(r, `corner pixel ${r},${g},${b}`).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeGreaterThan(200);
  });
});
