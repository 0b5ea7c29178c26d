import type { Job, WebhookDelivery } from '../../db/generated/client';
import { enqueue, type Tx } from '../../queue';
import { payloadColumn, type WebhookEvent } from './columns';
import { eventPayload, type Completion } from './events';

export const deliveryQueueKey = (deliveryId: string) => `webhook:${deliveryId}`;

/**
 * Records the first attempt of an event as a pending WebhookDelivery and enqueues its delivery
 * in the same transaction. A no-op for jobs without a webhook URL. Never sends anything itself:
 * requests are never blocked by a receiver.
 */
export async function scheduleWebhook(
  tx: Tx,
  job: Job,
  event: WebhookEvent,
  completion?: Completion,
): Promise<void> {
  if (!job.webhookUrl) return;
  const now = new Date();
  await queueAttempt(
    tx,
    {
      jobId: job.id,
      userId: job.userId,
      eventType: event,
      webhookUrl: job.webhookUrl,
      attemptNumber: 1,
      payloadJson: payloadColumn.write(eventPayload(job, event, { completion, at: now })),
    },
    now,
  );
}

/** One attempt of a delivery, recorded as pending and enqueued to run at `at`, in `tx`. */
export async function queueAttempt(
  tx: Tx,
  attempt: Pick<
    WebhookDelivery,
    'jobId' | 'userId' | 'eventType' | 'webhookUrl' | 'attemptNumber' | 'payloadJson'
  >,
  at: Date,
): Promise<void> {
  const delivery = await tx.webhookDelivery.create({
    data: { ...attempt, deliveryStatus: 'pending', scheduledAt: at },
  });
  const options = { singletonKey: deliveryQueueKey(delivery.id), runAt: at };
  await enqueue(tx, 'deliver-webhook', { deliveryId: delivery.id }, options);
}
