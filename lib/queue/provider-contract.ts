import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { ClaimedJob, QueueMessage, QueueProvider } from './provider';

/**
 * What every queue provider must do, as the runner relies on it: run against the embedded
 * queue (db-provider.test.ts) and BullMQ on a real Redis (bullmq-provider.in-process.test.ts).
 * `workers(n)` is called once per test: n providers standing for separate worker processes
 * that share one empty queue (each holds its own claims).
 */
export type Workers = (n: number) => QueueProvider[];

const KINDS = ['segment-video', 'deliver-webhook'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function message(
  payload: Record<string, unknown> = { n: 1 },
  opts: Partial<QueueMessage> = {},
): QueueMessage {
  return { id: randomUUID(), kind: 'segment-video', payload, maxAttempts: 3, ...opts };
}

/**
 * Claims until one is handed out (a lapsed lease is noticed by the engine's own checker, on its own
 * schedule).
 */
async function claimWithin(
  q: QueueProvider,
  workerId: string,
  leaseMs: number,
  timeoutMs = 15_000,
): Promise<ClaimedJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await q.claim(KINDS, workerId, leaseMs);
    if (job) return job;
    if (Date.now() > deadline) throw new Error(`nothing to claim within ${timeoutMs} ms`);
    await sleep(100);
  }
}

export function queueProviderContract(workers: Workers): void {
  const one = () => workers(1)[0]!;

  it(
    'hands a due message to one claimer, with its payload and ' +
      'attempt count, until it is completed',
    async () => {
      const [a, b] = workers(2) as [QueueProvider, QueueProvider];
      await a.send(message({ n: 1 }));
      const job = await a.claim(KINDS, 'w1', 30_000);
      expect(job).toMatchObject({ kind: 'segment-video', attempts: 1, maxAttempts: 3 });
      expect(JSON.parse(job!.payloadJson)).toEqual({ n: 1 });
      expect(await b.claim(KINDS, 'w2', 30_000)).toBeNull();
      await a.complete(job!.id, 'w1');
      expect(await b.claim(KINDS, 'w2', 30_000)).toBeNull();
    },
  );

  it('claims only the kinds asked for, and only once runAt has come', async () => {
    const q = one();
    await q.send(message({ n: 1 }, { runAt: new Date(Date.now() + 60_000) }));
    expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    await q.send(message({ n: 2 }));
    expect(await q.claim(['deliver-webhook'], 'w1', 30_000)).toBeNull();
    expect(JSON.parse((await q.claim(KINDS, 'w1', 30_000))!.payloadJson)).toEqual({ n: 2 });
  });

  it('never hands one message to two concurrent claimers', async () => {
    const claimers = workers(12);
    for (let i = 0; i < 5; i++) await claimers[0]!.send(message({ n: i }));
    const results = await Promise.all(claimers.map((w, i) => w.claim(KINDS, `w${i}`, 30_000)));
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(5);
    expect(new Set(won.map((r) => r.id)).size).toBe(5);
  });

  it(
    'hands a message whose lease lapsed (its worker was killed) to ' +
      'another worker; the old holder can no longer touch it',
    async () => {
      const [dead, live] = workers(2) as [QueueProvider, QueueProvider];
      await dead.send(message());
      const first = await dead.claim(KINDS, 'dead', 300);
      expect(await live.claim(KINDS, 'live', 30_000)).toBeNull();
      const second = await claimWithin(live, 'live', 30_000);
      expect(second).toMatchObject({ id: first!.id, attempts: 2 });
      expect(await dead.heartbeat(first!.id, 'dead', 30_000)).toBe(false);
      await dead.complete(first!.id, 'dead');
      expect(await live.heartbeat(second.id, 'live', 30_000)).toBe(true);
    },
  );

  it('keeps a message while heartbeats renew its lease', async () => {
    const [a, b] = workers(2) as [QueueProvider, QueueProvider];
    await a.send(message());
    const job = await a.claim(KINDS, 'w1', 1000);
    for (let i = 0; i < 8; i++) {
      await sleep(400);
      expect(await a.heartbeat(job!.id, 'w1', 1000)).toBe(true);
    }
    expect(await b.claim(KINDS, 'w2', 1000)).toBeNull();
  });

  it(
    'retries at runAt counting the attempt, releases without ' + 'counting it, and fails for good',
    async () => {
      const q = one();
      await q.send(message());
      let job = await q.claim(KINDS, 'w1', 30_000);
      await q.retry(job!.id, 'w1', 'boom', new Date(Date.now() + 300));
      expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
      job = await claimWithin(q, 'w1', 30_000);
      expect(job.attempts).toBe(2);
      await q.release(job.id, 'w1');
      job = await claimWithin(q, 'w1', 30_000);
      expect(job.attempts).toBe(2);
      await q.fail(job.id, 'w1', 'bad input');
      await sleep(500);
      expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    },
  );

  it('de-duplicates by singleton key while queued or running, not after', async () => {
    const q = one();
    await q.send(message({ n: 1 }, { singletonKey: 'k' }));
    await q.send(message({ n: 2 }, { singletonKey: 'k' }));
    const job = await q.claim(KINDS, 'w1', 30_000);
    expect(JSON.parse(job!.payloadJson)).toEqual({ n: 1 });
    await q.send(message({ n: 3 }, { singletonKey: 'k' }));
    expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    await q.complete(job!.id, 'w1');
    await q.send(message({ n: 4 }, { singletonKey: 'k' }));
    expect(JSON.parse((await q.claim(KINDS, 'w1', 30_000))!.payloadJson)).toEqual({ n: 4 });
  });

  it(
    'adds a message once however often it is sent (the outbox may ' +
      'relay it twice), also after it ran',
    async () => {
      const q = one();
      const m = message({ n: 1 }, { singletonKey: 'once' });
      await q.send(m);
      await q.send(m);
      const job = await q.claim(KINDS, 'w1', 30_000);
      expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
      await q.complete(job!.id, 'w1');
      await q.send(m);
      expect(await q.claim(KINDS, 'w1', 30_000)).toBeNull();
    },
  );
}
