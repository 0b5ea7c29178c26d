import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const root = import.meta.dirname;
/** Tests beside the code: unit tests, except those that start a process or open a port. */
const BESIDE_CODE = '{engine,lib,workers,components,bin,scripts}/**/*.test.{ts,tsx}';
const IN_PROCESS_BESIDE_CODE =
  '{engine,lib,workers,components,bin,scripts}/**/*.in-process.test.{ts,tsx}';

export default defineConfig({
  // The app's own imports (`@/lib/...`), for the route handlers the in-process tier serves.
  resolve: { alias: [{ find: /^@\//, replacement: `${root}/` }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [BESIDE_CODE],
          exclude: [...configDefaults.exclude, IN_PROCESS_BESIDE_CODE],
          setupFiles: [path.join(root, 'tests/unit/no-processes.ts')],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['tests/in-process/**/*.test.ts', IN_PROCESS_BESIDE_CODE],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
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
