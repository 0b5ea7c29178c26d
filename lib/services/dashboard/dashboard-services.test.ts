import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../billing/ledger';
import { db } from '../../db/client';
import { sqlitePath } from '../../db/migrate';
import { env, resetEnvForTests } from '../../env';
import { authenticateUser } from './authenticate-user';
import { startCheckout } from './checkout';
import { hasPurchasedCredits } from '../../billing/ledger';
import { listLedger } from './list-ledger';
import { listJobs } from './list-jobs';
import { quoteJobs } from './quote-job';
import { discardUnstartedJob } from './discard-job';
import { retryJob, startOptionsOf } from './retry-job';
import { storage, storageKeys } from '../../storage';
import { signUp } from './sign-up';

// A real SQLite database in a temp DATA_DIR, as the web process uses it.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-dashboard-'));

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  delete process.env.STRIPE_SECRET_KEY;
  resetEnvForTests();
});
afterAll(async () => {
  await db().$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('accounts', () => {
  it('makes only the first account an administrator', async () => {
    const first = await signUp({ email: 'Owner@Example.com', password: 'long enough password' });
    const second = await signUp({ email: 'member@example.com', password: 'long enough password' });
    expect(first).toMatchObject({ ok: true, isAdmin: true });
    expect(second).toMatchObject({ ok: true, isAdmin: false });
  });

  it('explains bad input and duplicate emails in words', async () => {
    expect(await signUp({ email: 'not-an-email', password: 'long enough password' })).toEqual({ ok: false, error: 'Enter a valid email address.' });
    const short = await signUp({ email: 'x@example.com', password: 'short' });
    expect(!short.ok && short.error).toContain('10 characters');
    const duplicate = await signUp({ email: 'owner@example.com', password: 'long enough password' });
    expect(!duplicate.ok && duplicate.error).toContain('already exists');
  });

  it('signs up while another process keeps writing to the database', async () => {
    db(); // creates the file
    // A worker or a second web process committing in a loop, as under load.
    const writer = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort } = require('node:worker_threads');
       const db = new Database(${JSON.stringify(sqlitePath(env().databaseUrl))}, { timeout: 10000 });
       const insert = db.prepare("INSERT INTO RateLimitCounter (key, count, windowStart, expiresAt) VALUES (?, 1, 0, 0)");
       let stop = false, n = 0;
       parentPort.on('message', () => { stop = true; });
       (function loop() { for (let i = 0; i < 50; i++) insert.run('load-' + n++); if (stop) { db.close(); parentPort.postMessage(n); } else setImmediate(loop); })();`,
      { eval: true },
    );
    const results = [];
    for (let i = 0; i < 12; i++) {
      results.push(await signUp({ email: `busy-${i}@example.com`, password: 'long enough password' }));
    }
    writer.postMessage('stop');
    const written = await new Promise<number>((resolve) => writer.once('message', resolve));
    await writer.terminate();
    expect(written).toBeGreaterThan(0);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.every((r) => r.ok && !r.isAdmin)).toBe(true);
  });

  it('authenticates with the right password only (email case-insensitive)', async () => {
    expect(typeof (await authenticateUser('OWNER@example.com', 'long enough password'))).toBe('string');
    expect(await authenticateUser('owner@example.com', 'wrong password!!')).toBeNull();
    expect(await authenticateUser('nobody@example.com', 'long enough password')).toBeNull();
  });
});

describe('credits', () => {
  it('records a test-mode purchase, lists the ledger with running balance and job names', async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: 'member@example.com' } });
    await grantCredits(user.id, 20, 'grant', 'welcome');
    expect(await hasPurchasedCredits(user.id)).toBe(false);
    expect(await startCheckout(user.id, 'starter', 'http://localhost')).toEqual({ mode: 'test', credits: 100 });
    expect(await hasPurchasedCredits(user.id)).toBe(true);
    const job = await db().job.create({ data: { userId: user.id, filename: 'talk.mp4', status: 'completed' } });
    await db().creditEntry.create({ data: { userId: user.id, kind: 'debit', amount: -7, jobId: job.id, note: 'Video processing' } });
    const rows = await listLedger(user.id);
    expect(rows.map((r) => [r.kind, r.amount, r.balanceAfter, r.jobFilename])).toEqual([
      ['debit', -7, 113, 'talk.mp4'],
      ['purchase', 100, 120, null],
      ['grant', 20, 20, null],
    ]);
    await expect(startCheckout(user.id, 'no-such-pack', 'http://localhost')).rejects.toThrow('Unknown credit pack');
  });
});

describe('jobs', () => {
  it('quotes exactly what start-job will charge, with its parts, and filters the list', async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    const job = await db().job.create({
      data: { userId: user.id, filename: 'clip.mp4', status: 'uploaded', lengthSeconds: 7.32, fps: 25, width: 512, height: 512 },
    });
    const fast = await db().job.create({
      data: { userId: user.id, filename: 'fast.mp4', status: 'uploaded', lengthSeconds: 2, fps: 60, width: 512, height: 512 },
    });
    expect(await quoteJobs(user.id, [job.id], { model: 'service-human', blur: false })).toMatchObject({ credits: 6, balance: 0, modelRate: 0.75, blurRate: 0 });
    expect((await quoteJobs(user.id, [job.id], { model: 'service-pro', blur: true })).credits).toBe(30);
    // Several jobs: the sum of each one's own rounded charge; 60 fps costs twice per second.
    const both = await quoteJobs(user.id, [job.id, fast.id], { model: 'service-original', blur: false });
    expect(both.jobs.map((j) => [j.credits, j.fpsMultiplier])).toEqual([
      [8, 1],
      [4, 2],
    ]);
    expect(both.credits).toBe(12);
    expect(both.creditCents).toEqual({ min: 8, max: 10 });
    const other = await db().user.findUniqueOrThrow({ where: { email: 'member@example.com' } });
    await expect(quoteJobs(other.id, [job.id], { model: 'service-human', blur: false })).rejects.toThrow('not found');

    // Jobs never started are kept out of the default list and shown by "Not started".
    expect((await listJobs(user.id, {})).jobs).toEqual([]);
    expect((await listJobs(user.id, { status: 'not-started' })).jobs.map((j) => j.filename).sort()).toEqual(['clip.mp4', 'fast.mp4']);
    expect((await listJobs(user.id, { status: 'failed' })).jobs).toEqual([]);
    expect((await listJobs(user.id, { status: 'not-started', query: 'cli' })).jobs).toHaveLength(1);
    expect((await listJobs(other.id, {})).jobs.map((j) => j.filename)).toEqual(['talk.mp4']);
  });

  it('tries a failed job again as a new uploaded job with a copy of its video and its options', async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    const failed = await db().job.create({
      data: {
        userId: user.id, filename: 'broken.mp4', status: 'failed', lengthSeconds: 3, fps: 25, width: 64, height: 64, frameCount: 75,
        model: 'service-light', backgroundJson: JSON.stringify({ type: 'color', color: '#112233' }), message: 'boom',
      },
    });
    const src = path.join(dataDir, 'src.mp4');
    fs.writeFileSync(src, 'video bytes');
    await storage().putFile(storageKeys.source(failed.id, 'test', 'mp4'), src);
    await db().job.update({ where: { id: failed.id }, data: { sourceKey: storageKeys.source(failed.id, 'test', 'mp4') } });

    const { jobId } = await retryJob(user.id, failed.id);
    const fresh = await db().job.findUniqueOrThrow({ where: { id: jobId } });
    expect(fresh).toMatchObject({ status: 'uploaded', filename: 'broken.mp4', lengthSeconds: 3, fps: 25, frameCount: 75, model: null });
    expect(fs.readFileSync(await storage().localFile(fresh.sourceKey!, os.tmpdir()), 'utf8')).toBe('video bytes');
    expect(await startOptionsOf(user.id, failed.id)).toEqual({ model: 'service-light', background: { type: 'color', color: '#112233' }, webhookUrl: null });
    expect(await db().job.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({ status: 'failed', message: 'boom' });

    const other = await db().user.findUniqueOrThrow({ where: { email: 'member@example.com' } });
    await expect(retryJob(other.id, failed.id)).rejects.toThrow('not found');
    expect(await startOptionsOf(other.id, failed.id)).toBeNull();
    await expect(retryJob(user.id, jobId)).rejects.toThrow('Only a failed job');

    // Discarding removes a job that never started, files included, and leaves others alone.
    await discardUnstartedJob(other.id, jobId);
    expect(await db().job.findUnique({ where: { id: jobId } })).not.toBeNull();
    await discardUnstartedJob(user.id, jobId);
    expect(await db().job.findUnique({ where: { id: jobId } })).toBeNull();
    expect(await storage().stat(fresh.sourceKey!)).toBeNull();
    await discardUnstartedJob(user.id, failed.id);
    expect(await db().job.findUnique({ where: { id: failed.id } })).not.toBeNull();
  });
});
