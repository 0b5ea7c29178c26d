import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { cutClip } from '../../lib/media/fixtures';
import { ARTIFACTS, CLIP } from './media';
import type { Stack } from './stack';

/**
 * What the job-page specs start from: an account signed up through the page (its session in
 * `page`), an API key for it from the CLI with 10 credits, and a completed service-human job of
 * the first `seconds` of the test clip, made through the API (that lifecycle has its own tests).
 */
export async function signUpWithCompletedJob(
  page: Page,
  stack: Stack,
  name: string,
  seconds = 2,
): Promise<{ email: string; headers: Record<string, string>; jobId: string }> {
  const email = await signUp(page, name);

  const created = execFileSync(
    process.execPath,
    ['bin/keyout.mjs', 'keys', 'create', '--email', email, '--credits', '10'],
    {
      env: { ...process.env, DATA_DIR: stack.dataDir, PUBLIC_URL: stack.url },
      encoding: 'utf8',
    },
  );
  const headers = { 'X-Api-Key': created.trim().split('\n').at(-1)! };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const clip = path.join(ARTIFACTS, `${name}-clip.mp4`);
  await cutClip(CLIP, clip, seconds);
  const receipt = (await (
    await page.request.post('/v1/jobs', {
      headers,
      data: { filename: 'talk.mp4', content_type: 'video/mp4' },
    })
  ).json()) as { id: string; upload_url: string };
  expect(
    (
      await page.request.put(receipt.upload_url, {
        headers: { 'Content-Type': 'video/mp4' },
        data: fs.readFileSync(clip),
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await page.request.post(`/v1/jobs/${receipt.id}/start`, {
        headers,
        data: { model: 'service-human' },
      })
    ).status(),
  ).toBe(200);
  await expect(async () => {
    const s = (await (
      await page.request.get(`/v1/jobs/${receipt.id}/status`, { headers })
    ).json()) as { status: string };
    expect(s.status).toBe('completed');
  }).toPass({ timeout: 240_000, intervals: [2000] });
  return { email, headers, jobId: receipt.id };
}

/** Signs a new account up through the form (signed in as it on `page`); returns its email. */
export async function signUp(page: Page, name: string): Promise<string> {
  const email = `${name}-${Date.now()}@example.com`;
  await page.context().clearCookies();
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  return email;
}

/** The account's remaining credits, as the API reports them. */
export async function remainingCredits(page: Page, headers: Record<string, string>) {
  const res = await page.request.get('/v1/credits', { headers });
  return ((await res.json()) as { remaining_credits: number }).remaining_credits;
}
