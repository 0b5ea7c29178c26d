import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { redisUnavailable, testRedis } from '../../scripts/lib-stack/test-redis';
import { BullmqQueueProvider } from './bullmq-provider';
import { queueProviderContract } from './provider-contract';

const unavailable = redisUnavailable();
if (unavailable) console.warn(`Skipping the BullMQ provider tests: ${unavailable}`);

describe.skipIf(unavailable)('BullmqQueueProvider (real Redis)', () => {
  let redis: Awaited<ReturnType<typeof testRedis>>;
  const open: BullmqQueueProvider[] = [];
  beforeAll(async () => {
    redis = await testRedis();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((p) => p.close()));
    await redis?.stop();
  });

  queueProviderContract((n) => {
    // A namespace of its own per test: nothing left over from the one before.
    const prefix = `keyout-test-${randomBytes(4).toString('hex')}`;
    const made = Array.from({ length: n }, () => new BullmqQueueProvider(redis.url, prefix));
    open.push(...made);
    return made;
  });
});
