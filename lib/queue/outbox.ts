import type { Db, Prisma } from '../db/client';
import { catalogue, type JobKind, type PayloadOf } from './job-kinds';
import { outboxPayloadColumn } from './columns';
import type { EnqueueOptions, QueueProvider } from './provider';

/**
 * Work is enqueued by writing an outbox row in the caller's own transaction, so a domain change
 * and the work it starts commit together (or not at all) whichever queue engine runs the work.
 * `relayOutbox` then hands the rows to the provider: right after the commit (see `transact`),
 * and on every idle poll of a worker, so a crash between the two only delays the work.
 */
export type Tx = Prisma.TransactionClient;

export async function enqueue<K extends JobKind>(
  tx: Tx,
  kind: K,
  payload: PayloadOf<K>,
  opts: EnqueueOptions = {},
): Promise<void> {
  // Validated here as well as when it runs: a bad payload fails the caller, not a worker later.
  const parsed = catalogue[kind].payload.parse(payload);
  await tx.outboxMessage.create({
    data: {
      kind,
      payloadJson: outboxPayloadColumn.write(parsed),
      singletonKey: opts.singletonKey ?? null,
      runAt: opts.runAt ?? new Date(),
    },
  });
}

/**
 * Drops the unsent rows whose payload names one of `ids`, in the caller's transaction (deleting
 * a job); what was already sent is cancelled with QueueProvider.cancel after the commit.
 */
export async function dropOutbox(tx: Tx, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  // Payloads hold ids (uuids), so a substring match cannot name another row's job.
  const { count } = await tx.outboxMessage.deleteMany({
    where: { OR: ids.map((id) => ({ payloadJson: { contains: id } })) },
  });
  return count;
}

const RELAY_BATCH = 100;

/** Sends pending outbox rows to the provider, oldest first; returns how many were sent. */
export async function relayOutbox(db: Db, provider: QueueProvider): Promise<number> {
  let sent = 0;
  for (;;) {
    const rows = await db.outboxMessage.findMany({
      orderBy: { createdAt: 'asc' },
      take: RELAY_BATCH,
    });
    for (const row of rows) {
      const kind = row.kind as JobKind;
      await provider.send({
        id: row.id,
        kind,
        payload: outboxPayloadColumn.read(row.payloadJson),
        maxAttempts: catalogue[kind].retries + 1,
        ...(row.singletonKey ? { singletonKey: row.singletonKey } : {}),
        runAt: row.runAt,
      });
      // Sending is idempotent by id, so two relays racing over one row are harmless.
      await db.outboxMessage.deleteMany({ where: { id: row.id } });
      sent++;
    }
    if (rows.length < RELAY_BATCH) return sent;
  }
}
