import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './ports';
import { startPostgres } from './postgres';
import { startRedis } from './redis';
import { startSwift } from './swift';

export interface ScaleServices {
  /** What test stacks read to use these services (tests/integration/helpers/stack.ts). */
  env: Record<string, string>;
  describe: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL, Redis and Swift + s3api, started once without root from the distribution's
 * packages on one block of free ports (started one by one, each picking its own, Swift's
 * memcached once took PostgreSQL's), for every scale-out test stack to share.
 */
export async function startScaleServices(): Promise<ScaleServices> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-scale-services-'));
  fs.chmodSync(dir, 0o711);
  const port = await freePorts(7);
  const [pg, redis, swift] = await Promise.all([
    startPostgres({ dir: path.join(dir, 'postgres'), port, throwaway: true }),
    startRedis({ dir: path.join(dir, 'redis'), port: port + 1 }),
    startSwift({ dir: path.join(dir, 'swift'), port: port + 2 }),
  ]);
  return {
    env: {
      KEYOUT_TEST_POSTGRES_URL: pg.serverUrl,
      KEYOUT_TEST_REDIS_URL: redis.url,
      KEYOUT_TEST_S3: JSON.stringify({
        endpoint: swift.endpoint,
        region: swift.region,
        accessKeyId: swift.accessKeyId,
        secretAccessKey: swift.secretAccessKey,
      }),
    },
    describe: `PostgreSQL :${port}, Redis :${port + 1}, Swift :${port + 2}`,
    async stop() {
      await Promise.all([pg.stop(), redis.stop(), swift.stop()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
