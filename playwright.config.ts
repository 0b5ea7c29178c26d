import { defineConfig } from '@playwright/test';

// Debian's Chromium (apt-get install chromium); Playwright's own browser download is not used.
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  timeout: 300_000,
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
