import { describeWithClip, expect, test } from './fixtures';
import { checkBothWidths } from './support/checks';
import { remainingCredits, signUpWithCompletedJob } from './support/completed-job';
import { screenshotPath } from './support/media';

/**
 * Refine by clicking, on the job page: a frame picked, a point clicked on the face, SAM's mask
 * for that frame shown at once (SAM runs in the page's worker on onnxruntime-web), then applied
 * to the whole video as a points refinement (real SAM on the server's worker), which becomes
 * the active mask version and is charged like a text refinement.
 */
describeWithClip('mask refinement by clicking', () => {
  test('clicks on a frame, previews the mask, applies it as a new active version', async ({
    page,
    stack,
  }) => {
    const { headers, jobId } = await signUpWithCompletedJob(page, stack, 'clicks', 1);
    const credits = () => remainingCredits(page, headers);
    const afterJob = await credits();

    await page.goto(`/jobs/${jobId}`);
    const versions = page.getByRole('list', { name: 'Mask versions' });
    await expect(versions.getByRole('listitem')).toHaveCount(1);
    const clicking = page.getByRole('form', { name: 'Refine by clicking' });
    const apply = clicking.getByRole('button', { name: 'Apply to the whole video' });
    await expect(apply).toBeDisabled();

    // Frame 11 (0.42 s at 25 fps), then a click on the face, in the middle of the picture.
    await page.getByLabel(/^Frame \d+ of \d+/).fill('10');
    await expect(page.getByText(/^Frame 11 of \d+ · 0\.42 s$/)).toBeVisible();
    const picture = page.getByTestId('click-picture');
    await picture.scrollIntoViewIfNeeded();
    const box = (await picture.boundingBox())!;
    await picture.click({ position: { x: box.width * 0.5, y: box.height * 0.45 } });
    const status = page.getByRole('status').filter({ hasText: /Preview: the object covers/ });
    await expect(status).toBeVisible({ timeout: 180_000 });
    const share = Number((await status.textContent())!.match(/covers ([\d.]+) %/)![1]);
    expect(share).toBeGreaterThan(2);
    expect(share).toBeLessThan(80);
    await expect(page.getByText('1 point (1 on the object)')).toBeVisible();
    await page
      .getByRole('heading', { name: 'Or click on it' })
      .locator('xpath=..')
      .screenshot({ path: screenshotPath('32-job-click-preview') });
    // The job page with the preview: axe at desktop and phone width, no sideways scroll.
    await checkBothWidths(page, '33-job-click-preview');

    await clicking.getByLabel('Operation').selectOption('subtract');
    await clicking.getByLabel('Model').selectOption('service-original');
    await apply.click();
    const v2 = versions.getByRole('listitem').nth(1);
    await expect(v2).toContainText('Subtract 1 point at 0.42 s from version 1');
    await expect(v2.getByText('Active', { exact: true })).toBeVisible({ timeout: 240_000 });
    await expect(v2.getByText('Refining')).toHaveCount(0);
    expect(await credits()).toBe(afterJob - 1); // service-original: 1 credit a second, 1 s

    const list = (await (
      await page.request.get(`/v1/jobs/${jobId}/mask-versions`, { headers })
    ).json()) as {
      active_version: number;
      versions: { version: number; refinement_id: string | null }[];
    };
    expect(list.active_version).toBe(2);
    const refinement = (await (
      await page.request.get(`/v1/refinements/${list.versions[1]!.refinement_id}`, { headers })
    ).json()) as { prompt: { mode: string; frame: number; points: { include: boolean }[] } };
    expect(refinement.prompt).toMatchObject({
      mode: 'points',
      frame: 10,
      points: [{ include: true }],
    });
    await page
      .getByRole('heading', { name: 'Mask versions' })
      .locator('xpath=ancestor::*[contains(@class, "rounded")][1]')
      .screenshot({ path: screenshotPath('34-job-click-applied') });
  });
});
