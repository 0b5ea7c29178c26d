import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { PrismaClient } from './generated/client';
import { applyMigrations } from './migrate';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-migrate-'));
const file = path.join(dir, 'test.db');
const url = `file:${file}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('applyMigrations', () => {
  it('creates the schema once, records it like Prisma and turns WAL on', () => {
    const first = applyMigrations(url);
    expect(first.length).toBeGreaterThan(0);
    expect(applyMigrations(url)).toEqual([]);
    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare('SELECT migration_name, checksum, finished_at FROM _prisma_migrations').all();
    expect(rows).toHaveLength(first.length);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('gives a schema every model of the generated client can use', async () => {
    const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: file }) });
    const user = await prisma.user.create({ data: { email: 'm@example.com' } });
    await prisma.account.create({
      data: { userId: user.id, type: 'credentials', provider: 'p', providerAccountId: 'a' },
    });
    await prisma.session.create({
      data: { userId: user.id, sessionToken: 't', expires: new Date(Date.now() + 1000) },
    });
    await prisma.verificationToken.create({ data: { identifier: 'i', token: 't', expires: new Date() } });
    await prisma.apiKey.create({ data: { userId: user.id, prefix: 'ko_ab', hash: 'h' } });
    await prisma.creditEntry.create({
      data: { userId: user.id, kind: 'grant', amount: 5, idempotencyKey: 'grant:1' },
    });
    const job = await prisma.job.create({ data: { userId: user.id, filename: 'a.mp4', lengthSeconds: 1.5 } });
    await prisma.maskVersion.create({ data: { jobId: job.id, version: 1, storageKey: 'k' } });
    await prisma.output.create({ data: { jobId: job.id, format: 'webm_vp9' } });
    await prisma.webhookDelivery.create({
      data: { jobId: job.id, userId: user.id, eventType: 'job.started', webhookUrl: 'https://x', payloadJson: '{}' },
    });
    await prisma.rateLimitCounter.create({
      data: { key: 'k', count: 1, windowStart: new Date(), expiresAt: new Date() },
    });
    await prisma.queueJob.create({ data: { queue: 'process-video', payloadJson: '{}', singletonKey: 's' } });

    const full = await prisma.job.findUniqueOrThrow({
      where: { id: job.id },
      include: { masks: true, outputs: true, deliveries: true, user: { include: { apiKeys: true, ledger: true } } },
    });
    expect(full.masks).toHaveLength(1);
    expect(full.outputs[0]?.status).toBe('queued');
    expect(full.user.ledger[0]?.amount).toBe(5);
    // Unique keys hold: the same idempotency key cannot charge twice.
    await expect(
      prisma.creditEntry.create({ data: { userId: user.id, kind: 'grant', amount: 5, idempotencyKey: 'grant:1' } }),
    ).rejects.toThrow();
    // Deleting a job cascades to its children; the ledger keeps its history.
    await prisma.job.delete({ where: { id: job.id } });
    expect(await prisma.output.count()).toBe(0);
    expect(await prisma.creditEntry.count()).toBe(1);
    await prisma.$disconnect();
  });

  it('waits for another process that holds a write lock on a new file, where switching to WAL fails at once', async () => {
    const fresh = path.join(dir, 'contended.db');
    // Another connection (a second process creating the database) holds the write lock for 300 ms.
    const holder = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort } = require('node:worker_threads');
       const db = new Database(${JSON.stringify(fresh)});
       db.exec('BEGIN IMMEDIATE');
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true },
    );
    await new Promise((resolve) => holder.once('message', resolve));
    const started = Date.now();
    expect(applyMigrations(`file:${fresh}`).length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThan(100);
    await holder.terminate();
    const raw = new Database(fresh, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });
});
