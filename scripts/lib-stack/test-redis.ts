import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { unavailableUnless } from './processes';
import { redisBin, startRedis } from './redis';

/**
 * A Redis server for tests: KEYOUT_TEST_REDIS_URL (CI and `npm run test:scale` set it), otherwise
 * one of our own from the distribution's redis-server. `redisUnavailable()` says why neither
 * is possible, for a test to skip with.
 */
export function redisUnavailable(): string | null {
  return unavailableUnless(process.env.KEYOUT_TEST_REDIS_URL, redisBin);
}

export async function testRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.KEYOUT_TEST_REDIS_URL)
    return { url: process.env.KEYOUT_TEST_REDIS_URL, stop: async () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-redis-'));
  const server = await startRedis({ dir, port: await freePort() });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
