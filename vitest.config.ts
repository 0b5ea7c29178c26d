import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{engine,lib,workers,components,bin,scripts}/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // Two cores: real servers, workers and ffmpeg run one file at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
