/**
 * `npm run test:scale [-- <test files>]`: the API integration suite again, on the scale-out
 * stack: PostgreSQL, BullMQ on Redis and S3 (OpenStack Swift + s3api), started here once from
 * the distribution's packages and shared by every test stack (each gets its own database,
 * Redis database and bucket). `npm test` runs the same files on the embedded stack; CI runs both
 * (.ci/run). Run after `npm test` (or `npx next build`): it uses the production build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './lib-stack/ports';
import { startPostgres } from './lib-stack/postgres';
import { startRedis } from './lib-stack/redis';
import { startSwift } from './lib-stack/swift';

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
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-scale-services-'));
fs.chmodSync(dir, 0o711);

async function main(): Promise<number> {
  const port = await freePorts(7);
  const [pg, redis, swift] = await Promise.all([
    startPostgres({ dir: path.join(dir, 'postgres'), port, throwaway: true }),
    startRedis({ dir: path.join(dir, 'redis'), port: port + 1 }),
    startSwift({ dir: path.join(dir, 'swift'), port: port + 2 }),
  ]);
  try {
    console.log(`› Scale-out services: PostgreSQL :${port}, Redis :${port + 1}, Swift :${port + 2}`);
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...files], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        KEYOUT_TEST_STACK: 'scale',
        KEYOUT_TEST_POSTGRES_URL: pg.serverUrl,
        KEYOUT_TEST_REDIS_URL: redis.url,
        KEYOUT_TEST_S3: JSON.stringify({ endpoint: swift.endpoint, region: swift.region, accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey }),
      },
    });
    return run.status ?? 1;
  } finally {
    await Promise.all([pg.stop(), redis.stop(), swift.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
