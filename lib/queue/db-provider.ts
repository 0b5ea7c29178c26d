import { db, type Db } from '../db/client';
import type { QueueJob } from '../db/generated/client';
import { queuePayloadColumn } from './columns';
import type { ClaimedJob, QueueMessage, QueueProvider } from './provider';

const CLAIM_TRIES = 8;

function claimed(row: QueueJob): ClaimedJob {
  return {
    id: row.id,
    kind: row.queue,
    payloadJson: row.payloadJson,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
  };
}

/**
 * The embedded queue: QueueJob rows in the application database. A claim is a compare-and-set
 * (UPDATE … WHERE the row is still as we read it), so two workers can never both win a row, on
 * SQLite or PostgreSQL alike. A lease (`lockedUntil`) renewed by heartbeats marks a live
 * claim; a row whose lease lapsed (its worker was killed) is due again.
 */
export class DbQueueProvider implements QueueProvider {
  constructor(private readonly client: () => Db = db) {}

  async send(m: QueueMessage): Promise<void> {
    const data = {
      id: m.id,
      queue: m.kind,
      payloadJson: queuePayloadColumn.write(m.payload),
      maxAttempts: m.maxAttempts,
      runAt: m.runAt ?? new Date(),
      singletonKey: m.singletonKey ?? null,
    };
    try {
      await this.client().queueJob.upsert({
        where: m.singletonKey ? { singletonKey: m.singletonKey } : { id: m.id },
        create: data,
        update: {},
      });
    } catch (e) {
      // Relayed twice after its singleton row finished (the key is released then): already sent.
      if ((e as { code?: string }).code !== 'P2002') throw e;
    }
  }

  private async take(
    row: QueueJob,
    workerId: string,
    leaseMs: number,
    now: Date,
  ): Promise<ClaimedJob | null> {
    const { count } = await this.client().queueJob.updateMany({
      where: {
        id: row.id,
        status: row.status,
        attempts: row.attempts,
        lockedUntil: row.lockedUntil,
      },
      data: {
        status: 'active',
        lockedBy: workerId,
        lockedUntil: new Date(now.getTime() + leaseMs),
        attempts: { increment: 1 },
      },
    });
    return count === 1 ? claimed({ ...row, attempts: row.attempts + 1 }) : null;
  }

  async claim(
    kinds: readonly string[],
    workerId: string,
    leaseMs: number,
  ): Promise<ClaimedJob | null> {
    for (let i = 0; i < CLAIM_TRIES; i++) {
      const now = new Date();
      const row = await this.client().queueJob.findFirst({
        where: {
          queue: { in: [...kinds] },
          OR: [
            { status: 'queued', runAt: { lte: now } },
            { status: 'active', lockedUntil: { lt: now } },
          ],
        },
        orderBy: [{ runAt: 'asc' }, { createdAt: 'asc' }],
      });
      if (!row) return null;
      const got = await this.take(row, workerId, leaseMs, now);
      if (got) return got;
      // Another worker took it between our read and write: look again.
    }
    return null;
  }

  async heartbeat(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const { count } = await this.client().queueJob.updateMany({
      where: { id, lockedBy: workerId, status: 'active' },
      data: { lockedUntil: new Date(Date.now() + leaseMs) },
    });
    return count === 1;
  }

  async complete(id: string, workerId: string): Promise<void> {
    await this.client().queueJob.updateMany({
      where: { id, lockedBy: workerId, status: 'active' },
      data: { status: 'completed', lockedBy: null, lockedUntil: null, singletonKey: null },
    });
  }

  async fail(id: string, workerId: string, error: string): Promise<void> {
    await this.client().queueJob.updateMany({
      where: { id, lockedBy: workerId, status: 'active' },
      data: {
        status: 'failed',
        lastError: error,
        lockedBy: null,
        lockedUntil: null,
        singletonKey: null,
      },
    });
  }

  async retry(id: string, workerId: string, error: string, runAt: Date): Promise<void> {
    await this.client().queueJob.updateMany({
      where: { id, lockedBy: workerId, status: 'active' },
      data: { status: 'queued', lastError: error, runAt, lockedBy: null, lockedUntil: null },
    });
  }

  async release(id: string, workerId: string): Promise<void> {
    await this.client().queueJob.updateMany({
      where: { id, lockedBy: workerId, status: 'active' },
      data: { status: 'queued', attempts: { decrement: 1 }, lockedBy: null, lockedUntil: null },
    });
  }

  /**
   * The database client is the process's own, shared with everything else: nothing to close here.
   */
  async close(): Promise<void> {}

  async cancel(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    // Payloads hold ids (uuids), so a substring match cannot name another row's job.
    const { count } = await this.client().queueJob.deleteMany({
      where: { OR: ids.map((id) => ({ payloadJson: { contains: id } })) },
    });
    return count;
  }

  async prune(before: Date): Promise<number> {
    const { count } = await this.client().queueJob.deleteMany({
      where: { status: { in: ['completed', 'failed'] }, updatedAt: { lt: before } },
    });
    return count;
  }
}
