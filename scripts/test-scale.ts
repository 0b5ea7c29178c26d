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
 * What runs on the second stack: the files whose behaviour depends on the database, the queue
 * or the storage (the API's lifecycle, money, limits per key, webhooks, exports and the
 * scale-out scenarios). Media and engine tests are the same code on both stacks and run once,
 * in `npm test`.
 */
const SCALE_SUITE = [
  'tests/integration/scale-out.test.ts',
  'tests/integration/api-lifecycle.test.ts',
  'tests/integration/api-jobs.test.ts',
  'tests/integration/api-auth.test.ts',
  'tests/integration/webhooks-delivery.test.ts',
  'tests/integration/api-exports.test.ts',
];

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
