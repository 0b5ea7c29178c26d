/**
 * `npm run test:scale [-- <test files>]`: the API files again, on the scale-out
 * stack: PostgreSQL, BullMQ on Redis and S3 (OpenStack Swift + s3api), started here once from
 * the distribution's packages and shared by every test stack (each gets its own database,
 * Redis database and bucket). It uses the production build (`npx next build` first). `npm test`
 * runs it beside the embedded integration files (scripts/test.mjs).
 *
 * Without the services' packages it says what is missing and skips (exit 0); with
 * KEYOUT_REQUIRE_SCALE=1 a missing one fails.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { postgresUnavailable } from './lib-stack/test-postgres';
import { redisUnavailable } from './lib-stack/test-redis';
import { s3Unavailable } from './lib-stack/test-swift';
import { startScaleServices } from './lib-stack/scale-services';

/**
 * What runs on the second stack: the scale-out scenarios (two web processes, two workers,
 * PostgreSQL's row locks, a SIGKILLed worker, S3 deletes and direct uploads) on real servers and
 * workers, and the API files of the in-process tier (tests/in-process: money, jobs, exports and
 * batches, webhooks, keys, limits, URL checks), whose rules meet PostgreSQL's locks, BullMQ and
 * S3 there. Media and engine tests are the same code on both stacks and run once, embedded.
 */
const SCALE_SUITE = ['tests/integration/scale-out.test.ts', 'tests/in-process/'];

const root = path.resolve(import.meta.dirname, '..');
const files = process.argv.slice(2).length ? process.argv.slice(2) : SCALE_SUITE;

async function main(): Promise<number> {
  const missing = [postgresUnavailable(), redisUnavailable(), s3Unavailable()].filter(Boolean);
  if (missing.length) {
    console.log(
      `${process.env.KEYOUT_REQUIRE_SCALE ? '✖' : '›'} The scale-out ` +
        'stack cannot start here: ' +
        `${missing.map((m) => m!.replace(/\.$/, '')).join('; ')}.`,
    );
    if (process.env.KEYOUT_REQUIRE_SCALE) return 1;
    console.log('  Skipped: CI runs it (.ci/run installs PostgreSQL, Redis and Swift).');
    return 0;
  }
  const services = await startScaleServices();
  try {
    console.log(`› Scale-out services: ${services.describe}`);
    const vitest = spawn(
      'npx',
      ['vitest', 'run', '--project', 'integration', '--project', 'in-process', ...files],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, KEYOUT_TEST_STACK: 'scale', ...services.env },
      },
    );
    // Ctrl-C or a CI timeout: passed on to vitest, and the services still stop (finally).
    const forward = (signal: NodeJS.Signals) => vitest.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    const [code] = (await once(vitest, 'exit')) as [number | null];
    return code ?? 1;
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
