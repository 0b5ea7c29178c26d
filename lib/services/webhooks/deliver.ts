import type { WebhookDelivery } from '../../db/generated/client';
import { FetchError, postJson } from '../../net/safe-fetch';
import { transact } from '../../queue';
import { queueAttempt } from './schedule';
import { webhookPolicy } from './url';
import type { Ports } from '../ports';

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
 * How long a sender's claim on an attempt lasts: the receiver's time limit plus room to record the
 * outcome.
 */
const CLAIM_MS = WEBHOOK_TIMEOUT_MS + 10_000;
const WAIT_POLL_MS = 200;

/**
 * Claims a pending attempt for this sender: pending, and no unexpired claim by another. A
 * compare-and-set on the delivery row, so two senders (the queue job and a worker completing
 * the job inline, on any machine) never both send it; a sender that died leaves a claim that
 * lapses.
 */
async function claimAttempt(ports: Ports, id: string): Promise<boolean> {
  const now = new Date();
  const { count } = await ports.db.webhookDelivery.updateMany({
    where: {
      id,
      deliveryStatus: 'pending',
      OR: [{ sendingUntil: null }, { sendingUntil: { lt: now } }],
    },
    data: { sendingUntil: new Date(now.getTime() + CLAIM_MS) },
  });
  return count === 1;
}

/**
 * Sends one attempt, once, and records its outcome on its row; returns when the attempt has an
 * outcome (sent here or by whoever held the claim). A failed attempt with retries left creates
 * the next attempt's row (pending, 10 s later) and its queue job in one transaction, so the
 * history shows every attempt. Receiver failures never throw; only our own failures do (and
 * are retried by the queue).
 */
export async function deliverAttempt(ports: Ports, deliveryId: string): Promise<void> {
  for (;;) {
    if (await claimAttempt(ports, deliveryId)) break;
    const d = await ports.db.webhookDelivery.findUnique({
      where: { id: deliveryId },
      select: { deliveryStatus: true, sendingUntil: true },
    });
    if (!d || d.deliveryStatus !== 'pending') return;
    // Another sender holds it: wait for its outcome, or for its claim to lapse.
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
  const d = await ports.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });

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
  await transact(ports, async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: d.id },
      data: {
        deliveryStatus: error ? 'failed' : 'delivered',
        httpStatusCode: status,
        errorMessage: error,
        deliveredAt: error ? null : now,
        sendingUntil: null,
      },
    });
    if (!error || d.attemptNumber > WEBHOOK_MAX_RETRIES) return;
    const { jobId, userId, eventType, webhookUrl, payloadJson } = d;
    const next = { jobId, userId, eventType, webhookUrl, payloadJson };
    const at = new Date(now.getTime() + WEBHOOK_RETRY_DELAY_MS);
    await queueAttempt(tx, { ...next, attemptNumber: d.attemptNumber + 1 }, at);
  });
}

/**
 * Delivers the job's due pending attempts now, from the calling worker, and returns when each
 * has an outcome. The job lifecycle calls this before marking a job completed, so clients that
 * read the delivery history on "completed" find job.started and job.completed already
 * delivered. An attempt another sender is sending right now is waited for, not sent twice; the
 * attempt's queue job later finds it done.
 */
export async function deliverDueNow(ports: Ports, jobId: string): Promise<void> {
  const due = await ports.db.webhookDelivery.findMany({
    where: { jobId, deliveryStatus: 'pending', scheduledAt: { lte: new Date() } },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  for (const d of due) await deliverAttempt(ports, d.id);
}
