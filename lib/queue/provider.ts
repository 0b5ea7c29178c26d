import type { Prisma } from '../db/client';
import type { PrismaClient } from '../db/generated/client';

/** A Prisma client or an open interactive transaction: enqueue joins the caller's transaction. */
export type DbExecutor = Prisma.TransactionClient | PrismaClient;

export interface EnqueueOptions {
  /** At most one queued or running row per key; a second enqueue with the key is a no-op. */
  singletonKey?: string;
  runAt?: Date;
}

/** A row this worker holds under a lease. `attempts` counts this attempt. */
export interface ClaimedJob {
  id: string;
  kind: string;
  payloadJson: string;
  attempts: number;
  maxAttempts: number;
}

/**
 * What the worker needs from a queue. The embedded default keeps rows in the application's own
 * database (db-provider.ts); pg-boss or BullMQ can implement the same interface at scale.
 */
export interface QueueProvider {
  enqueue(
    tx: DbExecutor,
    kind: string,
    payload: object,
    opts: EnqueueOptions & { maxAttempts: number },
  ): Promise<void>;
  /** Atomically takes the next due row of one of `kinds` (or a row whose lease lapsed). */
  claim(kinds: readonly string[], workerId: string, leaseMs: number): Promise<ClaimedJob | null>;
  /** Atomically takes the due row with this singleton key, if it is queued now. */
  claimByKey(singletonKey: string, workerId: string, leaseMs: number): Promise<ClaimedJob | null>;
  /** Extends the lease; false when the row is no longer this worker's. */
  heartbeat(id: string, workerId: string, leaseMs: number): Promise<boolean>;
  complete(id: string, workerId: string): Promise<void>;
  /** Fails the row for good. */
  fail(id: string, workerId: string, error: string): Promise<void>;
  /** Puts the row back to run again at `runAt` (the attempt counts). */
  retry(id: string, workerId: string, error: string, runAt: Date): Promise<void>;
  /** Puts the row back at once without counting the attempt (graceful shutdown). */
  release(id: string, workerId: string): Promise<void>;
  /** Deletes finished rows older than `before`. */
  prune(before: Date): Promise<number>;
  /**
   * Removes every row whose payload names one of `ids`, whatever its state, inside the caller's
   * transaction (deleting a job). A running row's worker finds its lease gone at the next
   * heartbeat and aborts the work.
   */
  cancel(tx: DbExecutor, ids: readonly string[]): Promise<number>;
}
