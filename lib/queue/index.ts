import type { Db, Prisma } from '../db/client';
import { transaction } from '../db/transaction';
import { env } from '../env';
import { BullmqQueueProvider } from './bullmq-provider';
import { DbQueueProvider } from './db-provider';
import { relayOutbox } from './outbox';
import type { QueueProvider } from './provider';

export type { JobKind, Lane, PayloadOf } from './job-kinds';
export type { ClaimedJob, EnqueueOptions, QueueMessage, QueueProvider } from './provider';
export { dropOutbox, enqueue, type Tx } from './outbox';
export { PermanentJobError } from './errors';

let provider: QueueProvider | undefined;

/** The queue provider chosen by QUEUE_PROVIDER: "db" (the embedded default) or "bullmq" (Redis). */
export function queueProvider(): QueueProvider {
  if (provider) return provider;
  const e = env();
  provider =
    e.QUEUE_PROVIDER === 'bullmq' ? new BullmqQueueProvider(e.REDIS_URL!) : new DbQueueProvider();
  return provider;
}

/** The database and queue a transaction that enqueues works with (a use case's ports). */
export interface QueuePorts {
  db: Db;
  queue: QueueProvider;
}

/**
 * Hands the outbox to the queue; a failure is logged, and the next relay (a worker's idle poll)
 * retries.
 */
export async function relay(ports: QueuePorts): Promise<void> {
  try {
    await relayOutbox(ports.db, ports.queue);
  } catch (e) {
    console.error(
      `[queue] relaying the outbox failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/**
 * A domain transaction that may enqueue work: runs `fn` in one transaction of `ports.db`, then
 * relays what it enqueued to `ports.queue`. On SQLite the transaction's first statement must be a
 * write (lib/db/client.ts).
 */
export async function transact<T>(
  ports: QueuePorts,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  const result = await transaction(ports.db, fn);
  await relay(ports);
  return result;
}
