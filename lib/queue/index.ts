import { env } from '../env';
import { catalogue, type JobKind, type PayloadOf } from './catalogue';
import { DbQueueProvider } from './db-provider';
import type { DbExecutor, EnqueueOptions, QueueProvider } from './provider';

export type { JobKind, PayloadOf } from './catalogue';
export type { ClaimedJob, DbExecutor, EnqueueOptions, QueueProvider } from './provider';
export { PermanentJobError } from './errors';

let provider: QueueProvider | undefined;

/** The queue provider chosen by QUEUE_PROVIDER ("db", the embedded default, is the only one yet). */
export function queueProvider(): QueueProvider {
  if (provider) return provider;
  switch (env().QUEUE_PROVIDER) {
    case 'db':
      provider = new DbQueueProvider();
      return provider;
  }
}

/**
 * Adds a job to the queue inside the caller's transaction (so "Job: processing" and its queue row
 * commit together). The payload is validated against the catalogue here as well as when it runs.
 */
export async function enqueue<K extends JobKind>(
  tx: DbExecutor,
  kind: K,
  payload: PayloadOf<K>,
  opts: EnqueueOptions = {},
): Promise<void> {
  const spec = catalogue[kind];
  const parsed = spec.payload.parse(payload) as object;
  await queueProvider().enqueue(tx, kind, parsed, { ...opts, maxAttempts: spec.retries + 1 });
}
