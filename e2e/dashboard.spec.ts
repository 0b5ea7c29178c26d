import path from 'node:path';
import { expect, test } from './fixtures';
import { gotoSettled } from './support/browser';
import { alphaRange, ARTIFACTS, CLIP, hasClip, screenshotPath } from './support/media';

const email = `owner-${Date.now()}@example.com`;
const password = 'correct horse battery staple';

test.describe.configure({ mode: 'serial' });

test('visitor sees the landing page and signs up; the first account is admin', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cut people');
  await page.screenshot({ path: screenshotPath('01-landing'), fullPage: true });

  await page.getByRole('link', { name: 'Create account' }).first().click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('02-signup'), fullPage: true });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
});

test('signs out and back in; a wrong password is explained', async ({ page }) => {
  await page.goto('/jobs');
  await page.getByRole('button', { name: 'Sign out' }).last().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/credits');
  await expect(page).toHaveURL(/\/signin\?next=%2Fcredits/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await page.screenshot({ path: screenshotPath('03-signin-error'), fullPage: true });
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/credits$/);
});

test('buys credits, creates a key (shown once) and revokes it', async ({ page }) => {
  await page.goto('/keys');
  await expect(page.getByText('purchased', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toBeDisabled();
  await page.screenshot({ path: screenshotPath('04-keys-locked'), fullPage: true });

  await page.goto('/credits');
  await expect(page.getByTestId('credits-balance')).toHaveText('0');
  await page.getByRole('button', { name: /Buy 500 credits/ }).click();
  await expect(page.getByText('500 credits were added')).toBeVisible();
  await expect(page.getByTestId('credits-balance')).toHaveText('500');
  await expect(page.getByRole('table')).toContainText('Purchase');
  await page.screenshot({ path: screenshotPath('05-credits'), fullPage: true });

  await page.goto('/keys');
  await page.getByLabel('Key name').fill('e2e');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
  expect(key).toMatch(/^\S+[A-Za-z0-9]{32}$/);
  await page.screenshot({ path: screenshotPath('06-key-created'), fullPage: true });

  // The key works against the API, then stops working once revoked.
  const ok = await page.request.get('/v1/credits', { headers: { 'X-Api-Key': key } });
  expect(ok.status()).toBe(200);
  expect(((await ok.json()) as { remaining_credits: number }).remaining_credits).toBe(500);

  await page.goto('/keys'); // not reload(): that could re-send a pre-hydration form POST
  const row = page.getByTestId('api-key-row').filter({ hasText: 'e2e' });
  // The dialog opens from client code: retry the click until the page has hydrated.
  await expect(async () => {
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.screenshot({ path: screenshotPath('07-key-revoke-confirm'), fullPage: true });
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row.getByText(/Revoked/)).toBeVisible();
  const refused = await page.request.get('/v1/credits', { headers: { 'X-Api-Key': key } });
  expect(refused.status()).toBe(401);
});

test.describe('server job from the dashboard', () => {
  test.skip(!hasClip, `test clip missing: ${CLIP} (../shared/testdata)`);

  test('uploads, shows the exact cost, completes, and the WebM has real alpha', async ({ page }) => {
    await page.goto('/jobs');
    await expect(page.getByText('No jobs yet')).toBeVisible();
    await page.screenshot({ path: screenshotPath('08-jobs-empty'), fullPage: true });
    await page.getByRole('link', { name: 'New job' }).click();
    await page.locator('input[type=file]').setInputFiles(CLIP);
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    // 7.3 s at 25 fps on Human (0.75 credit/s) → ceil(5.5) = 6 credits; the ledger must agree below.
    await page.getByLabel(/Human/).check();
    await expect(page.getByTestId('job-cost')).toHaveText(/^\d+ credits?$/);
    const cost = Number.parseInt((await page.getByTestId('job-cost').textContent()) ?? '', 10);
    expect(cost).toBe(6);
    await page.screenshot({ path: screenshotPath('09-new-job'), fullPage: true });
    await page.getByRole('button', { name: `Start — ${cost} credits` }).click();

    await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('job-live')).toBeVisible();
    await expect(page.getByText(/Frame \d+ of \d+/)).toBeVisible({ timeout: 120_000 });
    await page.screenshot({ path: screenshotPath('10-job-processing'), fullPage: true });
    await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible({ timeout: 240_000 });
    await expect(page.getByRole('heading', { name: 'Preview' })).toBeVisible();
    await page.screenshot({ path: screenshotPath('11-job-completed'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Result' }).click()]);
    const file = path.join(ARTIFACTS, 'server-result.webm');
    await download.saveAs(file);
    const alpha = alphaRange(file);
    expect(alpha.frames).toBeGreaterThan(100);
    expect(alpha.min).toBeLessThan(alpha.max); // not a constant alpha plane: a real cut-out
    expect(alpha.min).toBeLessThan(16);
    expect(alpha.max).toBeGreaterThan(240);

    await page.goto('/credits');
    await expect(page.getByTestId('credits-balance')).toHaveText(String(500 - cost));
    await expect(page.getByRole('table')).toContainText(`-${cost}`);
    await expect(page.getByRole('table')).toContainText('liveportrait_d12_talking_glasses_512.mp4');

    await page.goto('/jobs');
    await expect(page.getByTestId('job-card')).toHaveCount(1);
    await expect(page.getByTestId('job-card')).toContainText('Completed');
    await page.screenshot({ path: screenshotPath('12-jobs-list'), fullPage: true });
  });
});

test('docs and admin pages render', async ({ page }) => {
  test.setTimeout(600_000); // next dev compiles the API reference (a large bundle) on first visit
  await gotoSettled(page, '/docs');
  await expect(page.getByRole('heading', { name: 'API docs' })).toBeVisible();
  await expect(page.getByText('/v1/jobs').first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: screenshotPath('13-docs'), fullPage: true });
  await gotoSettled(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
  await page.getByLabel(/Credits to grant/).first().fill('25');
  await page.getByRole('button', { name: 'Grant' }).first().click();
  await expect(page.getByText('Granted 25 credits.')).toBeVisible();
  await page.screenshot({ path: screenshotPath('14-admin'), fullPage: true });
});

test('pages fit a phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, url] of [
    ['30-mobile-landing', '/'],
    ['31-mobile-jobs', '/jobs'],
    ['32-mobile-credits', '/credits'],
    ['33-mobile-studio', '/studio'],
  ] as const) {
    await page.goto(url);
    await expect(page.locator('h1').first()).toBeVisible();
    // Nothing may force sideways scrolling of the whole page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${url} is wider than the screen`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath(name), fullPage: true });
  }
  if (!hasClip) return; // no job was made without the test clip
  await page.goto('/jobs');
  await page.getByTestId('job-card').first().click();
  await expect(page.getByRole('heading', { name: 'Preview' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the job page is wider than the screen').toBeLessThanOrEqual(0);
  await page.screenshot({ path: screenshotPath('34-mobile-job'), fullPage: true });
});
