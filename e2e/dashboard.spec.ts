import { expect, test } from './fixtures';
import { screenshotPath } from './support/media';

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
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('do not match');
  await page.screenshot({ path: screenshotPath('03-signin-error'), fullPage: true });
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/jobs|\/credits/);
});
