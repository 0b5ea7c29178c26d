export interface EnqueueOptions {
  /** At most one queued or running row per key; a second enqueue with the key is a no-op. */
  singletonKey?: string;
  runAt?: Date;
}

/** A unit of work handed to the provider (relayed from the outbox, lib/queue/outbox.ts). */
export interface QueueMessage extends EnqueueOptions {
  /** The outbox message's id: sending the same message twice adds it once. */
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  maxAttempts: number;
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
 * What the worker needs from a queue: the embedded default keeps rows in the application's own
 * database (db-provider.ts); at scale BullMQ on Redis (bullmq-provider.ts). Domain code never
 * sends directly: it writes the outbox in its own transaction. Claims are by kind only: queue
 * engines cannot hand out one particular job, so work that must also be done inline (a webhook
 * attempt before a job completes) is claimed on its own row instead
 * (lib/services/webhooks/deliver.ts).
 */
export interface QueueProvider {
  /**
   * Adds a message; idempotent by `id`, and a no-op while its singleton key is queued or running.
   */
  send(message: QueueMessage): Promise<void>;
  /** Atomically takes the next due row of one of `kinds` (or a row whose lease lapsed). */
  claim(kinds: readonly string[], workerId: string, leaseMs: number): Promise<ClaimedJob | null>;
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
  /** Closes the provider's own connections (a worker shutting down). */
  close(): Promise<void>;
  /**
   * Removes every message whose payload names one of `ids`, whatever its state (deleting a job;
   * its unsent outbox rows go in the deleting transaction, lib/queue/outbox.ts). A running row's
   * worker finds its lease gone at the next heartbeat and aborts the work. Idempotent.
   */
  cancel(ids: readonly string[]): Promise<number>;
}
