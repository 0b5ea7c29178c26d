/**
 * `npm run test:scale [-- <test files>]`: the API integration suite again, on the scale-out
 * stack: PostgreSQL, BullMQ on Redis and S3 (OpenStack Swift + s3api), started here once from
 * the distribution's packages and shared by every test stack (each gets its own database,
 * Redis database and bucket). `npm test` runs the same files on the embedded stack; CI runs both
 * (.ci/run). Run after `npm test` (or `npx next build`): it uses the production build.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startScaleServices } from './lib-stack/scale-services';

/**
 * What runs on the second stack: the scale-out scenarios and the per-key limits. The other API
 * files (api-lifecycle, api-jobs, api-exports, webhooks-delivery) still assume local storage
 * (upload URLs under /files, files read from DATA_DIR) and are not run here yet. Media and
 * engine tests are the same code on both stacks and run once, in `npm test`.
 */
const SCALE_SUITE = ['tests/integration/scale-out.test.ts', 'tests/integration/api-auth.test.ts'];

const root = path.resolve(import.meta.dirname, '..');
const files = process.argv.slice(2).length ? process.argv.slice(2) : SCALE_SUITE;

async function main(): Promise<number> {
  const services = await startScaleServices();
  try {
    console.log(`› Scale-out services: ${services.describe}`);
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...files], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, KEYOUT_TEST_STACK: 'scale', ...services.env },
    });
    return run.status ?? 1;
  } finally {
    await services.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
