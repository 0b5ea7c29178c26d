import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { describeWithClip, expect, test } from './fixtures';
import { gotoSettled } from './support/browser';
import { checkBothWidths, expectClipCutOut } from './support/checks';
import { alphaRange, ARTIFACTS, CLIP, hasClip, screenshotPath } from './support/media';

const email = `owner-${Date.now()}@example.com`;
let password = 'correct horse battery staple';
let apiKey = '';

test.describe.configure({ mode: 'serial' });

/**
 * Presses Tab until `target` has focus (at most `max` times): the element is reachable by keyboard.
 */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`${String(target)} was not reached with ${max} presses of Tab`);
}

/** `keyout <args>` against the stack's data, as a self-hoster runs it. */
function keyout(stack: { dataDir: string; env: NodeJS.ProcessEnv }, args: string[]): string {
  return execFileSync(process.execPath, ['bin/keyout.mjs', ...args], {
    env: stack.env,
    encoding: 'utf8',
  });
}

// The e2e files share one server (a worker-scoped stack) and run in file-name order: this file
// must sort first among those that sign up, as its first test signs up the instance's first
// account (the admin).
test(
  'visitor meets the landing page and signs up with the keyboard ' +
    'only; the first account is admin',
  async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Cut people');
    await checkBothWidths(page, '01-landing');

    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await checkBothWidths(page, '02-signup');
    // Focus starts on Name, and Tab walks Name → Email → Password; Enter submits.
    await page.reload();
    await expect(page.getByLabel('Name (optional)')).toBeFocused();
    await page.keyboard.type('Olga Owner');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    await checkBothWidths(page, '03-jobs-empty');
  },
);

test(
  'signs out and back in; a wrong password is explained; a reset ' +
    'link from the CLI sets a new password',
  async ({ page, stack }) => {
    await page.goto('/jobs');
    await page.getByRole('button', { name: 'Sign out' }).last().click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/credits');
    await expect(page).toHaveURL(/\/signin\?next=%2Fcredits/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
    await checkBothWidths(page, '04-signin-error');

    // This server sends no e-mail: the page says how to get a link instead.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // Both pages have an Email field: fill the reset form's, not the sign-in one still on screen.
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await expect(page.getByText('npx keyout users reset-link --email')).toBeVisible();
    await checkBothWidths(page, '05-forgot-password');

    const link = keyout(stack, ['users', 'reset-link', '--email', email])
      .trim()
      .split('\n')
      .at(-1)!;
    expect(link).toMatch(/\/reset-password\?token=/);
    await page.goto(link);
    await checkBothWidths(page, '06-reset-password');
    password = 'a brand new passphrase';
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('The same password again').fill(password);
    await page.getByRole('button', { name: 'Set the new password and sign in' }).click();
    await expect(page.getByText('Your new password is set')).toBeVisible();
    await page.goto(link); // once only
    await expect(page.getByText('expired or was already used')).toBeVisible();

    await page.goto('/jobs');
    await page.getByRole('button', { name: 'Sign out' }).last().click();
    await page.goto('/signin?next=%2Fcredits');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/credits$/);
  },
);

test('buys credits, creates a key (shown once) and revokes it', async ({ page }) => {
  await page.goto('/keys');
  await expect(page.getByText('purchased', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toBeDisabled();
  await checkBothWidths(page, '07-keys-locked');

  await page.goto('/credits');
  await expect(page.getByTestId('credits-balance')).toHaveText('0');
  await page.getByRole('button', { name: /Buy 500 credits/ }).click();
  await expect(page.getByText('500 credits were added')).toBeVisible();
  await expect(page.getByTestId('credits-balance')).toHaveText('500');
  await expect(page.getByRole('table')).toContainText('Purchase');
  await checkBothWidths(page, '08-credits');

  await page.goto('/keys');
  await page.getByLabel('Key name').fill('e2e');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
  expect(key).toMatch(/^\S+[A-Za-z0-9]{32}$/);
  await checkBothWidths(page, '09-key-created');

  const ok = await page.request.get('/v1/credits', { headers: { 'X-Api-Key': key } });
  expect(ok.status()).toBe(200);

  await page.goto('/keys'); // not reload(): that could re-send a pre-hydration form POST
  const row = page.getByTestId('api-key-row').filter({ hasText: 'e2e' });
  await expect(async () => {
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.screenshot({ path: screenshotPath('10-key-revoke-confirm'), fullPage: true });
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row.getByText(/Revoked/)).toBeVisible();
  expect((await page.request.get('/v1/credits', { headers: { 'X-Api-Key': key } })).status()).toBe(
    401,
  );

  // A key for the rest of the run (the docs' script uses it).
  await page.getByLabel('Key name').fill('script');
  await page.getByRole('button', { name: 'Create key' }).click();
  apiKey = ((await page.getByTestId('new-api-key').textContent()) ?? '').trim();
  await page.goto('/keys');
  await checkBothWidths(page, '11-keys');
});

test(
  'docs: the copied script runs as it is with a real key and ' +
    'completes a job; /v1/openapi is public',
  async ({ page, stack, browserContext }) => {
    test.setTimeout(600_000); // the reference is a large bundle; the script waits for a real job
    test.skip(!hasClip, `test clip missing: ${CLIP}`);
    await gotoSettled(page, '/docs');
    await expect(page.getByRole('heading', { name: 'API docs' })).toBeVisible();
    await expect(page.getByText('/v1/jobs/{id}/start').first()).toBeVisible({ timeout: 60_000 });
    await checkBothWidths(page, '12-docs');

    await browserContext.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.url,
    });
    await page.getByTestId('copy-script').click();
    await expect(page.getByTestId('copy-script')).toHaveText('Copied');
    const script = await page.evaluate(() => navigator.clipboard.readText());
    expect(script).toContain('PASTE_YOUR_API_KEY_HERE');
    expect(script).not.toContain('…');

    // Run it as a user would: in a fresh folder, with the key in KEYOUT_API_KEY and a short video.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-script-'));
    fs.writeFileSync(path.join(dir, 'keyout-quickstart.sh'), script);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      CLIP,
      '-t',
      '1',
      '-vf',
      'scale=256:256',
      '-an',
      path.join(dir, 'short.mp4'),
    ]);
    const out = execFileSync('bash', ['keyout-quickstart.sh'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        KEYOUT_API_KEY: apiKey,
        VIDEO: 'short.mp4',
      } as unknown as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 480_000,
    });
    fs.writeFileSync(path.join(ARTIFACTS, 'docs-script-output.txt'), out);
    expect(out).toMatch(/completed/);
    const result = path.join(dir, 'short-keyout.webm');
    const alpha = alphaRange(result);
    expect(alpha.frames).toBeGreaterThan(10);
    expect(alpha.min).toBeLessThan(alpha.max);
    fs.copyFileSync(result, path.join(ARTIFACTS, 'docs-script-result.webm'));

    const spec = await page.request.get('/v1/openapi'); // no key
    expect(spec.status()).toBe(200);
    expect(await spec.json()).toMatch(/^openapi: 3/);
  },
);

describeWithClip('server jobs from the dashboard', () => {
  test(
    'keyboard only: a new job with a live preview before it ' +
      'completes; the WebM has real alpha',
    async ({ page }) => {
      // Original on 183 frames: 8 to 12+ minutes on a shared 2-core host
      test.setTimeout(1_500_000);
      await page.goto('/jobs/new');
      await expect(page.getByRole('heading', { name: 'New job' })).toBeVisible();
      await checkBothWidths(page, '13-new-job-empty');

      // Skip link, the header's "From an image", then the dropzone's file input; Enter opens the
      // file chooser.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'From an image' })).toBeFocused();
      await page.keyboard.press('Tab');
      const input = page.locator('input[type=file]');
      await expect(input).toBeFocused();
      await page.screenshot({ path: screenshotPath('14-new-job-dropzone-focus') });
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.keyboard.press('Enter'),
      ]);
      await chooser.setFiles(CLIP);
      await expect(page.getByText(/uploaded$/)).toBeVisible({ timeout: 60_000 });
      // The exact cost with its parts: Original, 1 credit/s × 7.32 s, rounded up.
      await expect(page.getByTestId('job-cost')).toHaveText('8 credits');
      await expect(page.getByTestId('job-cost-parts')).toHaveText('1 × 7.32 s, rounded up = 8');
      await checkBothWidths(page, '15-new-job-ready');
      const start = page.getByRole('button', { name: 'Start — 8 credits' });
      await tabTo(page, start);
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId('job-stage')).toBeVisible();
      // A preview of a finished frame shows up while the job is still running.
      await expect(page.getByTestId('job-preview')).toBeVisible({ timeout: 300_000 });
      await expect(page.getByTestId('job-live')).toBeVisible();
      expect(
        await page.getByTestId('job-preview').evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      await expect(page.getByTestId('job-stage')).toHaveText(/frame \d+ of 183|Encoding|Checking/);
      await checkBothWidths(page, '16-job-processing-preview');
      await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible({
        timeout: 1_200_000,
      });
      await expect(page.getByTestId('player-time')).toHaveText(/\/ 7\.\d s/);
      await checkBothWidths(page, '17-job-completed');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download Result' }).click(),
      ]);
      const file = path.join(ARTIFACTS, 'server-result.webm');
      await download.saveAs(file);
      expectClipCutOut(file);

      await page.goto('/credits');
      // and the docs script's 1-s job
      await expect(page.getByTestId('credits-balance')).toHaveText(String(500 - 8 - 1));
    },
  );

  test('upload, leave, come back and start it from the job page', async ({ page }) => {
    test.setTimeout(600_000);
    await page.goto('/jobs/new');
    await page.locator('input[type=file]').setInputFiles(CLIP);
    await expect(page.getByText(/uploaded$/)).toBeVisible({ timeout: 60_000 });
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();

    // Not started: out of the default list, kept under "Not started".
    await expect(page.getByTestId('job-card')).toHaveCount(2); // the keyboard job and the script's
    await page.getByRole('link', { name: 'Not started' }).click();
    await expect(page.getByTestId('job-card')).toHaveCount(1);
    await checkBothWidths(page, '18-jobs-not-started');
    await page.getByTestId('job-card').click();

    await expect(page.getByTestId('job-start')).toBeVisible();
    await page.getByLabel(/Human/).check();
    await page.locator('label', { hasText: /^Colour$/ }).click();
    await page.getByLabel('Colour as hex').fill('#0ea5e9');
    await expect(page.getByTestId('job-cost')).toHaveText('6 credits');
    await checkBothWidths(page, '19-job-start-from-page');
    await page.getByRole('button', { name: 'Start — 6 credits' }).click();
    await expect(page.getByTestId('job-live')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible({
      timeout: 480_000,
    });
    await expect(page.getByText('On #0EA5E9 · MP4 (H.264)')).toBeVisible();
  });

  test(
    'a bad background URL is refused next to its field; a job that ' + 'fails is tried again',
    async ({ page }) => {
      test.setTimeout(600_000);
      // A background host whose image is there when the start checks it and gone when the worker
      // comes.
      const png = execFileSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=160x120',
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'png',
        '-',
      ]);
      let served = 0;
      const host = http.createServer((req, res) => {
        if (req.url === '/once.png' && served++ === 0)
          return res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
        res.writeHead(404).end('gone');
      });
      await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
      try {
        await page.goto('/jobs/new');
        await page.locator('input[type=file]').setInputFiles(CLIP);
        await expect(page.getByText(/uploaded$/)).toBeVisible({ timeout: 60_000 });
        await page.getByLabel(/Human/).check();
        await page.locator('label', { hasText: /^Image or video$/ }).click();
        await page.getByLabel('Background URL').fill(`${base}/missing.png`);
        await page.getByRole('button', { name: /^Start — / }).click();
        const field = page.getByLabel('Background URL');
        await expect(page.locator('#bg-url-error')).toHaveText(
          'This background cannot be used: The server answered HTTP 404.',
        );
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(field).toBeFocused();
        await checkBothWidths(page, '20-new-job-bad-background');

        await field.fill(`${base}/once.png`);
        await page.getByRole('button', { name: /^Start — / }).click();
        await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
        await expect(page.getByRole('heading', { name: 'The job failed' })).toBeVisible({
          timeout: 300_000,
        });
        await expect(page.getByText(/background could not be fetched/)).toBeVisible();
        await checkBothWidths(page, '21-job-failed');
        const failedUrl = page.url();

        await page.getByRole('button', { name: 'Try again' }).click();
        await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}\?from=/);
        expect(page.url()).not.toContain(failedUrl.split('/').at(-1)!.concat('?'));
        await expect(
          page.getByText('A new job from the same video, with the options of the failed one'),
        ).toBeVisible();
        await expect(page.getByLabel('Background URL')).toHaveValue(`${base}/once.png`);
        await expect(page.getByLabel(/Human/)).toBeChecked();
        await checkBothWidths(page, '22-job-retry');
        await page.locator('label', { hasText: /^Blur · / }).click();
        await expect(page.getByTestId('job-cost')).toHaveText('13 credits'); // (0.75 + 1) × 7.32 s
        await page.getByRole('button', { name: 'Start — 13 credits' }).click();
        await expect(page.getByRole('heading', { name: 'Downloads' })).toBeVisible({
          timeout: 480_000,
        });
        // The blur result plays and seeks: its duration is known.
        await expect(page.getByTestId('player-time')).toHaveText(/\/ 7\.\d s/);
        await checkBothWidths(page, '23-job-blur-completed');
      } finally {
        await new Promise((r) => host.close(r));
      }
    },
  );

  test('the jobs list shows each result itself, its model and output', async ({ page }) => {
    await page.goto('/jobs');
    const cards = page.getByTestId('job-card');
    await expect(cards).toHaveCount(5); // keyboard, script, come-back, failed, retried
    await expect(cards.filter({ hasText: 'Blurred background · MP4 (H.264)' })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'Human · On #0EA5E9' })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'Failed' })).toHaveCount(1);
    await expect(
      cards.first().getByText('liveportrait_d12_talking_glasses_512.mp4'),
    ).toHaveAttribute('title', 'liveportrait_d12_talking_glasses_512.mp4');
    await checkBothWidths(page, '24-jobs-list', async () => {
      // Every thumbnail has loaded before the screenshot.
      await expect(async () =>
        expect(
          await page
            .locator('[data-testid=job-card] img')
            .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)),
        ).toBe(true),
      ).toPass();
    });
  });
});

test('several files at once make one job each with the same settings', async ({ page }) => {
  test.skip(!hasClip, `test clip missing: ${CLIP}`);
  await page.goto('/jobs/new');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-multi-'));
  const a = path.join(dir, 'first.mp4');
  const b = path.join(dir, 'second.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-i', CLIP, '-t', '2', '-an', a]);
  execFileSync('ffmpeg', ['-v', 'error', '-i', CLIP, '-t', '3', '-an', b]);
  await page.locator('input[type=file]').setInputFiles([a, b]);
  await expect(page.getByTestId('upload-item')).toHaveCount(2);
  await expect(page.getByText(/uploaded$/)).toHaveCount(2, { timeout: 60_000 });
  await page.getByLabel(/Light/).check();
  // Each job is charged for itself, rounded up: ceil(0.75 × 2) + ceil(0.75 × 3) = 2 + 3.
  await expect(page.getByTestId('job-cost')).toHaveText('5 credits');
  await checkBothWidths(page, '25-new-job-two-files');
  // Removing one deletes its job; the other stays ready.
  await page.getByRole('button', { name: 'Remove second.mp4' }).click();
  await expect(page.getByTestId('job-cost')).toHaveText('2 credits');
  await page.goto('/jobs?status=not-started');
  await expect(page.getByTestId('job-card')).toHaveCount(1);
});

test('admin grants credits and makes a password-reset link', async ({ page }) => {
  await gotoSettled(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
  await page
    .getByLabel(/Credits to grant/)
    .first()
    .fill('25');
  await page.getByRole('button', { name: 'Grant' }).first().click();
  await expect(page.getByText('Granted 25 credits.')).toBeVisible();
  await page.getByRole('button', { name: `Password reset link for ${email}` }).click();
  await expect(page.getByTestId('reset-link')).toContainText('/reset-password?token=');
  await checkBothWidths(page, '26-admin');
});

test('an unknown address and another account’s job get the branded 404', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'This page is not here' })).toBeVisible();
  await checkBothWidths(page, '27-not-found');
  await page.goto('/jobs/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'This page is not here' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Your jobs' })).toBeVisible();
});
