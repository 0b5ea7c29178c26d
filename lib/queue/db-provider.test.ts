import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrate';
import { PrismaClient } from '../db/generated/client';
import { DbQueueProvider } from './db-provider';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-queue-'));
const url = `file:${path.join(dir, 'queue.db')}`;
applyMigrations(url);
const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: url.slice(5), timeout: 10_000 }) });
const q = new DbQueueProvider(() => prisma);
const KINDS = ['segment-video', 'deliver-webhook'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  await prisma.$disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await prisma.queueJob.deleteMany();
});

const add = (payload: object = { n: 1 }, opts: { singletonKey?: string; runAt?: Date } = {}) =>
  q.send({ id: randomUUID(), kind: 'segment-video', payload, ...opts, maxAttempts: 3 });

describe('DbQueueProvider (real SQLite file)', () => {
  it('claims a due row once, with a lease, and completes it', async () => {
    await add({ n: 1 });
    const job = await q.claim(KINDS, 'w1', 30_000);
    expect(job).toMatchObject({ kind: 'segment-video', attempts: 1, maxAttempts: 3 });
    expect(JSON.parse(job!.payloadJson)).toEqual({ n: 1 });
    expect(await q.claim(KINDS, 'w2', 30_000)).toBeNull();
    const row = await prisma.queueJob.findUniqueOrThrow({ where: { id: job!.id } });
    expect(row).toMatchObject({ status: 'active', lockedBy: 'w1' });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await q.complete(job!.id, 'w1');
    expect(await prisma.queueJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({
      status: 'completed',
      lockedBy: null,
    });
  });

  it('only claims kinds asked for, and rows whose runAt has come', async () => {
    await add({ n: 1 }, { runAt: new Date(Date.now() + 60_000) });
    expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    await add({ n: 2 });
    expect(await q.claim(['deliver-webhook'], 'w1', 30_000)).toBeNull();
    expect(JSON.parse((await q.claim(KINDS, 'w1', 30_000))!.payloadJson)).toEqual({ n: 2 });
  });

  it('never hands one row to two concurrent claimers', async () => {
    for (let i = 0; i < 5; i++) await add({ n: i });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => q.claim(KINDS, `w${i}`, 30_000)));
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(5);
    expect(new Set(won.map((r) => r.id)).size).toBe(5);
  });

  it('reclaims a row whose lease lapsed (killed worker); the old holder can no longer touch it', async () => {
    await add();
    const first = await q.claim(KINDS, 'dead', 100);
    expect(await q.claim(KINDS, 'w2', 30_000)).toBeNull();
    await sleep(200);
    const second = await q.claim(KINDS, 'w2', 30_000);
    expect(second).toMatchObject({ id: first!.id, attempts: 2 });
    expect(await q.heartbeat(first!.id, 'dead', 30_000)).toBe(false);
    await q.complete(first!.id, 'dead');
    expect((await prisma.queueJob.findUniqueOrThrow({ where: { id: first!.id } })).lockedBy).toBe('w2');
  });

  it('keeps a row while heartbeats renew its lease', async () => {
    await add();
    const job = await q.claim(KINDS, 'w1', 300);
    for (let i = 0; i < 4; i++) {
      await sleep(150);
      expect(await q.heartbeat(job!.id, 'w1', 300)).toBe(true);
    }
    expect(await q.claim(KINDS, 'w2', 300)).toBeNull();
  });

  it('retries later, fails for good, and releases without counting the attempt', async () => {
    await add();
    let job = await q.claim(KINDS, 'w1', 30_000);
    await q.retry(job!.id, 'w1', 'boom', new Date(Date.now() + 150));
    expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    await sleep(200);
    job = await q.claim(KINDS, 'w1', 30_000);
    expect(job!.attempts).toBe(2);
    await q.release(job!.id, 'w1');
    job = await q.claim(KINDS, 'w1', 30_000);
    expect(job!.attempts).toBe(2);
    await q.fail(job!.id, 'w1', 'bad input');
    expect(await prisma.queueJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({
      status: 'failed',
      lastError: 'bad input',
    });
    expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
  });

  it('de-duplicates by singleton key while queued or running, not after', async () => {
    await add({ n: 1 }, { singletonKey: 'k' });
    await add({ n: 2 }, { singletonKey: 'k' });
    expect(await prisma.queueJob.count()).toBe(1);
    expect(await q.claimByKey('k', 'w1', 30_000)).not.toBeNull();
    expect(await q.claimByKey('k', 'w2', 30_000)).toBeNull();
    const job = await prisma.queueJob.findUniqueOrThrow({ where: { singletonKey: 'k' } });
    await q.complete(job.id, 'w1');
    await add({ n: 3 }, { singletonKey: 'k' });
    expect(await prisma.queueJob.count()).toBe(2);
  });

  it('adds a message once however often it is sent (the outbox may relay it twice)', async () => {
    const id = randomUUID();
    const m = { id, kind: 'segment-video', payload: { n: 1 }, maxAttempts: 3 };
    await q.send(m);
    await q.send(m);
    expect(await prisma.queueJob.count()).toBe(1);
    // Relayed again after it ran: its singleton key was released, its id was not.
    const keyed = { ...m, id: randomUUID(), singletonKey: 'once' };
    await q.send(keyed);
    const job = await q.claim(KINDS, 'w1', 30_000);
    await q.complete(job!.id, 'w1');
    const other = await q.claim(KINDS, 'w1', 30_000);
    await q.complete(other!.id, 'w1');
    await q.send(keyed);
    expect(await prisma.queueJob.count()).toBe(2);
  });

  it('cancels every row that names one of the ids, queued, running or finished', async () => {
    const [job, delivery, other] = [randomUUID(), randomUUID(), randomUUID()];
    await add({ jobId: job }, { singletonKey: `segment-video:${job}` });
    await q.send({ id: randomUUID(), kind: 'deliver-webhook', payload: { deliveryId: delivery }, maxAttempts: 4 });
    await add({ jobId: other });
    const running = await q.claim(KINDS, 'w1', 30_000);
    expect(JSON.parse(running!.payloadJson)).toEqual({ jobId: job });
    expect(await q.cancel([job, delivery])).toBe(2);
    expect((await prisma.queueJob.findMany()).map((r) => JSON.parse(r.payloadJson) as object)).toEqual([{ jobId: other }]);
    // Its worker can no longer renew or finish it.
    expect(await q.heartbeat(running!.id, 'w1', 30_000)).toBe(false);
    expect(await q.cancel([])).toBe(0);
  });

  it('prunes finished rows only', async () => {
    await add({ n: 1 });
    await add({ n: 2 });
    const job = await q.claim(KINDS, 'w1', 30_000);
    await q.complete(job!.id, 'w1');
    expect(await q.prune(new Date(Date.now() + 1000))).toBe(1);
    expect(await prisma.queueJob.count()).toBe(1);
  });
});
