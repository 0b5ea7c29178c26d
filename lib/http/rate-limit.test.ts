import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetEnvForTests } from '../env';
import { currentWindow, flushRateCounters, hit, peek, unhit } from './rate-limit';

// A real SQLite database in a temp DATA_DIR, as the web process uses it.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-rate-'));
beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  resetEnvForTests();
});
afterAll(async () => {
  await db().$disconnect();
  delete process.env.DATA_DIR;
  resetEnvForTests();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Every call passes one instant, a window an hour ahead: a test that ran across a minute's end
// would otherwise count in one window and read another, and the module's own timer (real time)
// must find these windows still open.
const now = currentWindow(Date.now() + 3_600_000).start + 1_000;
const row = (bucket: string) =>
  db().rateLimitCounter.findUnique({ where: { key: `${bucket}:${currentWindow(now).start}` } });

describe('rate-limit counters', () => {
  it('count every hit at once, in memory: the request path takes no database lock', async () => {
    const states = Array.from({ length: 101 }, () => hit('req:a', 100, now));
    expect(states.map((s) => s.count)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    expect(states[99]).toMatchObject({ remaining: 0, limit: 100 });
    expect(states[100]!.count).toBeGreaterThan(100);
    expect(await row('req:a')).toBeNull();
    await flushRateCounters(now);
    expect((await row('req:a'))?.count).toBe(101);
  });

  it("add other processes' hits, read back at the next flush", async () => {
    hit('req:b', 100, now);
    await flushRateCounters(now);
    // Another web process flushing 40 hits of its own.
    await db().rateLimitCounter.update({
      where: { key: `req:b:${currentWindow(now).start}` },
      data: { count: { increment: 40 } },
    });
    expect(hit('req:b', 100, now).count).toBe(2);
    await flushRateCounters(now);
    expect(peek('req:b', 100, now).count).toBe(42);
    expect(hit('req:b', 100, now).count).toBe(43);
  });

  it('take a hit back (a refused start), in memory and in the database', async () => {
    hit('start:c', 3, now);
    hit('start:c', 3, now);
    await flushRateCounters(now);
    unhit('start:c', now);
    expect(peek('start:c', 3, now).count).toBe(1);
    await flushRateCounters(now);
    expect((await row('start:c'))?.count).toBe(1);
    expect(peek('nobody', 3, now)).toMatchObject({ count: 0, remaining: 3 });
  });
});
