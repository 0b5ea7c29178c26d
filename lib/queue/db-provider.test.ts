import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { migratedPrisma } from '../../tests/support/temp-database';
import { queuePayloadColumn } from './columns';
import { DbQueueProvider } from './db-provider';
import { queueProviderContract } from './provider-contract';

const prisma = migratedPrisma('queue');
const q = new DbQueueProvider(() => prisma);

beforeEach(async () => {
  await prisma.queueJob.deleteMany();
});

describe('DbQueueProvider (real SQLite file)', () => {
  queueProviderContract((n) => Array.from({ length: n }, () => new DbQueueProvider(() => prisma)));

  it('keeps the claim on the row: active, by whom, until when', async () => {
    await q.send({ id: randomUUID(), kind: 'segment-video', payload: {}, maxAttempts: 3 });
    const job = await q.claim(['segment-video'], 'w1', 30_000);
    const row = await prisma.queueJob.findUniqueOrThrow({ where: { id: job!.id } });
    expect(row).toMatchObject({ status: 'active', lockedBy: 'w1' });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await q.fail(job!.id, 'w1', 'bad input');
    expect(await prisma.queueJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({
      status: 'failed',
      lastError: 'bad input',
      lockedBy: null,
    });
  });

  it('cancels every row that names one of the ids, queued, running or finished', async () => {
    const [job, delivery, other] = [randomUUID(), randomUUID(), randomUUID()];
    await q.send({
      id: randomUUID(),
      kind: 'segment-video',
      payload: { jobId: job },
      maxAttempts: 3,
      singletonKey: `segment-video:${job}`,
    });
    await q.send({
      id: randomUUID(),
      kind: 'deliver-webhook',
      payload: { deliveryId: delivery },
      maxAttempts: 4,
    });
    await q.send({
      id: randomUUID(),
      kind: 'segment-video',
      payload: { jobId: other },
      maxAttempts: 3,
    });
    const running = await q.claim(['segment-video'], 'w1', 30_000);
    expect(JSON.parse(running!.payloadJson)).toEqual({ jobId: job });
    expect(await q.cancel([job, delivery])).toBe(2);
    expect(
      (await prisma.queueJob.findMany()).map((r) => queuePayloadColumn.read(r.payloadJson)),
    ).toEqual([{ jobId: other }]);
    // Its worker can no longer renew or finish it.
    expect(await q.heartbeat(running!.id, 'w1', 30_000)).toBe(false);
    expect(await q.cancel([])).toBe(0);
  });

  it('prunes finished rows only', async () => {
    for (const n of [1, 2])
      await q.send({ id: randomUUID(), kind: 'segment-video', payload: { n }, maxAttempts: 3 });
    const job = await q.claim(['segment-video'], 'w1', 30_000);
    await q.complete(job!.id, 'w1');
    expect(await q.prune(new Date(Date.now() + 1000))).toBe(1);
    expect(await prisma.queueJob.count()).toBe(1);
  });
});
