import { describeWithClip, expect, test } from './fixtures';
import { remainingCredits, signUpWithCompletedJob } from './support/completed-job';
import { checkBothWidths } from './support/checks';
import { screenshotPath } from './support/media';

/**
 * The job page's Mask versions panel: a completed job's mask refined by a text prompt from the
 * page (real parts model on the worker), the new version made active when done and charged at
 * the model's rate, then the first version made active again. The job itself is made through
 * the API (its lifecycle has its own tests); the account signs up through the page.
 */
describeWithClip('mask refinement from the job page', () => {
  test('refines the mask by a prompt, then switches the active version back', async ({
    page,
    stack,
  }) => {
    const { headers, jobId } = await signUpWithCompletedJob(page, stack, 'refine');
    const credits = () => remainingCredits(page, headers);
    const afterJob = await credits();

    await page.goto(`/jobs/${jobId}`);
    const panel = page
      .getByRole('heading', { name: 'Mask versions' })
      .locator('xpath=ancestor::*[contains(@class, "rounded")][1]');
    const versions = page.getByRole('list', { name: 'Mask versions' });
    const byText = page.getByRole('form', { name: 'Refine by a description' });
    await expect(versions.getByRole('listitem')).toHaveCount(1);
    const badge = (version: number) =>
      versions
        .getByRole('listitem')
        .nth(version - 1)
        .getByText('Active', { exact: true });
    await expect(badge(1)).toBeVisible();

    // A prompt that names nothing the models know is refused on the page, before any charge.
    await page.getByLabel('Refine the active mask').fill('the spaceship');
    await byText.getByRole('button', { name: 'Refine', exact: true }).click();
    await expect(panel.getByRole('alert')).toContainText(/supported/i);
    expect(await credits()).toBe(afterJob);

    await page.getByLabel('Refine the active mask').fill('hair');
    await byText.getByLabel('Operation').selectOption('subtract');
    await byText.getByLabel('Model').selectOption('service-original');
    await byText.getByRole('button', { name: 'Refine', exact: true }).click();
    const v2 = versions.getByRole('listitem').nth(1);
    await expect(v2).toContainText('Subtract “hair” from version 1');
    // The page polls while the refinement runs; version 2 becomes the active one when it is done.
    await expect(badge(2)).toBeVisible({ timeout: 240_000 });
    await expect(v2.getByText('Refining')).toHaveCount(0);
    expect(await credits()).toBe(afterJob - 2); // service-original: 1 credit a second, 2 s
    await panel.screenshot({ path: screenshotPath('30-job-mask-versions') });
    // The job page with two versions: axe at desktop and phone width, no sideways scroll.
    await checkBothWidths(page, '31-job-refined');

    // The segmentation's version made active again, from the page.
    await page.getByRole('button', { name: 'Make active version 1' }).click();
    await expect(badge(1)).toBeVisible();
    await expect(badge(2)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Make active version 2' })).toBeVisible();
    const list = (await (
      await page.request.get(`/v1/jobs/${jobId}/mask-versions`, { headers })
    ).json()) as { active_version: number };
    expect(list.active_version).toBe(1);
  });
});
