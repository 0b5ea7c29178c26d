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
    const rows = raw
      .prepare('SELECT migration_name, checksum, finished_at FROM _prisma_migrations')
      .all();
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
    await prisma.verificationToken.create({
      data: { identifier: 'i', token: 't', expires: new Date() },
    });
    await prisma.apiKey.create({ data: { userId: user.id, prefix: 'ko_ab', hash: 'h' } });
    await prisma.creditEntry.create({
      data: { userId: user.id, kind: 'grant', amount: 5, idempotencyKey: 'grant:1' },
    });
    const job = await prisma.job.create({
      data: { userId: user.id, filename: 'a.mp4', lengthSeconds: 1.5 },
    });
    await prisma.maskVersion.create({ data: { jobId: job.id, version: 1, storageKey: 'k' } });
    await prisma.refinement.create({
      data: {
        jobId: job.id,
        userId: user.id,
        op: 'add',
        model: 'service-pro',
        promptJson: '{}',
        fromVersion: 1,
        version: 2,
        creditsUsed: 3,
        idempotencyKey: 'k',
        fingerprint: 'f',
      },
    });
    const batch = await prisma.batch.create({ data: { jobId: job.id, useGpu: true } });
    await prisma.output.create({
      data: { jobId: job.id, format: 'webm_vp9', batchId: batch.id, startedAt: new Date() },
    });
    await prisma.outboxMessage.create({ data: { kind: 'render-batch', payloadJson: '{}' } });
    await prisma.job.update({ where: { id: job.id }, data: { mediaJson: '{}' } });
    await prisma.webhookDelivery.create({
      data: {
        jobId: job.id,
        userId: user.id,
        eventType: 'job.started',
        webhookUrl: 'https://x',
        payloadJson: '{}',
      },
    });
    await prisma.rateLimitCounter.create({
      data: { key: 'k', count: 1, windowStart: new Date(), expiresAt: new Date() },
    });
    await prisma.queueJob.create({
      data: { queue: 'segment-video', payloadJson: '{}', singletonKey: 's' },
    });

    const full = await prisma.job.findUniqueOrThrow({
      where: { id: job.id },
      include: {
        masks: true,
        refinements: true,
        outputs: true,
        batches: true,
        deliveries: true,
        user: { include: { apiKeys: true, ledger: true } },
      },
    });
    expect(full.masks).toHaveLength(1);
    expect(full.refinements).toHaveLength(1);
    expect(full.batches[0]?.useGpu).toBe(true);
    expect(full.outputs[0]?.status).toBe('queued');
    expect(full.user.ledger[0]?.amount).toBe(5);
    // Unique keys hold: the same idempotency key cannot charge twice.
    await expect(
      prisma.creditEntry.create({
        data: { userId: user.id, kind: 'grant', amount: 5, idempotencyKey: 'grant:1' },
      }),
    ).rejects.toThrow();
    // Deleting a job cascades to its children; the ledger keeps its history.
    await prisma.job.delete({ where: { id: job.id } });
    expect(await prisma.output.count()).toBe(0);
    expect(await prisma.batch.count()).toBe(0);
    expect(await prisma.creditEntry.count()).toBe(1);
    await prisma.$disconnect();
  });

  it(
    'upgrades a database from before outputs were resources: ' +
      'batches get rows, process-video rows become segment-video',
    () => {
      const old = path.join(dir, 'old.db');
      const raw = new Database(old);
      const init = fs.readFileSync(
        path.resolve(
          import.meta.dirname,
          '../../prisma/migrations/20261122000000_init/migration.sql',
        ),
        'utf8',
      );
      raw.exec(init);
      raw.exec(`CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL, "finished_at" DATETIME, "migration_name" TEXT NOT NULL,
      "logs" TEXT, "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
      raw
        .prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, ` +
            `migration_name) VALUES ('1', 'x', current_timestamp, ` +
            `'20261122000000_init')`,
        )
        .run();
      raw.exec(`INSERT INTO "User" (id, email, updatedAt)
        VALUES ('u', 'old@example.com', current_timestamp);
      INSERT INTO "Job" (id, userId, filename, updatedAt)
        VALUES ('j', 'u', 'a.mp4', current_timestamp);
      INSERT INTO "Output" (id, jobId, batchId, role, format)
        VALUES ('o1', 'j', 'b', 'primary', 'webm_vp9'), ('o2', 'j', 'b', 'additional', 'gif');
      INSERT INTO "QueueJob" (id, queue, payloadJson, updatedAt)
        VALUES ('q', 'process-video', '{"jobId":"j"}', current_timestamp);`);
      raw.close();
      expect(applyMigrations(`file:${old}`)).toContain('20261125000000_outputs_as_resources');
      const after = new Database(old, { readonly: true });
      expect(after.prepare('SELECT id, jobId, useGpu FROM "Batch"').all()).toEqual([
        { id: 'b', jobId: 'j', useGpu: 0 },
      ]);
      expect(after.prepare('SELECT queue FROM "QueueJob"').all()).toEqual([
        { queue: 'segment-video' },
      ]);
      after.close();
    },
  );

  it(
    'waits for another process that holds a write lock on a new ' +
      'file, where switching to WAL fails at once',
    async () => {
      const fresh = path.join(dir, 'contended.db');
      // Another connection (a second process creating the database) holds the write lock for 300
      // ms.
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
    },
  );
});
