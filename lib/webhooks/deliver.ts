import { db } from '../db/client';
import type { WebhookDelivery } from '../db/generated/client';
import { FetchError, postJson } from '../net/safe-fetch';
import { enqueue, queueProvider, relay, transact } from '../queue';
import { deliveryQueueKey } from './schedule';
import { webhookPolicy } from './url';

/** The spec's delivery rules: answer within 5 s; up to 3 retries, 10 s apart. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
export const WEBHOOK_RETRY_DELAY_MS = 10_000;
export const WEBHOOK_MAX_RETRIES = 3;

function headersFor(d: WebhookDelivery): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/1.0',
    'X-Service-Event': d.eventType,
    'X-Service-Job-ID': d.jobId,
    'X-Service-Timestamp': new Date().toISOString(),
    'X-Service-Attempt': String(d.attemptNumber),
  };
}

/**
 * Sends one attempt and records its outcome on its row. A failed attempt with retries left
 * creates the next attempt's row (pending, 10 s later) and its queue row in one transaction, so
 * the history shows every attempt. Receiver failures never throw; only our own failures do
 * (and are retried by the queue).
 */
export async function deliverAttempt(deliveryId: string): Promise<void> {
  const d = await db().webhookDelivery.findUnique({ where: { id: deliveryId } });
  if (!d || d.deliveryStatus !== 'pending') return;

  let status: number | null = null;
  let error: string | null = null;
  try {
    ({ status } = await postJson(d.webhookUrl, d.payloadJson, headersFor(d), {
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      policy: webhookPolicy(),
    }));
    if (status < 200 || status >= 300) error = `The receiver answered HTTP ${status}.`;
  } catch (e) {
    error = e instanceof FetchError ? e.message : 'The delivery could not be sent.';
  }

  const now = new Date();
  await transact(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: d.id },
      data: {
        deliveryStatus: error ? 'failed' : 'delivered',
        httpStatusCode: status,
        errorMessage: error,
        deliveredAt: error ? null : now,
      },
    });
    if (!error || d.attemptNumber > WEBHOOK_MAX_RETRIES) return;
    const scheduledAt = new Date(now.getTime() + WEBHOOK_RETRY_DELAY_MS);
    const next = await tx.webhookDelivery.create({
      data: {
        jobId: d.jobId,
        userId: d.userId,
        eventType: d.eventType,
        webhookUrl: d.webhookUrl,
        attemptNumber: d.attemptNumber + 1,
        deliveryStatus: 'pending',
        payloadJson: d.payloadJson,
        scheduledAt,
      },
    });
    await enqueue(tx, 'deliver-webhook', { deliveryId: next.id }, {
      singletonKey: deliveryQueueKey(next.id),
      runAt: scheduledAt,
    });
  });
}

const WAIT_POLL_MS = 200;

/**
 * Delivers the job's due pending attempts now, from the calling worker, and returns when each
 * has an outcome. The job lifecycle calls this before marking a job completed, so clients that read
 * the delivery history on "completed" find job.started and job.completed already delivered.
 * An attempt another worker is sending right now is waited for, not sent twice.
 */
export async function deliverDueNow(jobId: string, workerId: string): Promise<void> {
  // Their queue rows come through the outbox: hand over any still waiting there first.
  await relay();
  const due = await db().webhookDelivery.findMany({
    where: { jobId, deliveryStatus: 'pending', scheduledAt: { lte: new Date() } },
    orderBy: { createdAt: 'asc' },
  });
  const provider = queueProvider();
  for (const d of due) {
    const row = await provider.claimByKey(deliveryQueueKey(d.id), workerId, 60_000);
    if (row) {
      try {
        await deliverAttempt(d.id);
        await provider.complete(row.id, workerId);
      } catch (e) {
        await provider.release(row.id, workerId);
        throw e;
      }
      continue;
    }
    const deadline = Date.now() + WEBHOOK_TIMEOUT_MS + 5_000;
    while (Date.now() < deadline) {
      const now = await db().webhookDelivery.findUnique({ where: { id: d.id }, select: { deliveryStatus: true } });
      if (!now || now.deliveryStatus !== 'pending') break;
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  }
}
