import { deliverAttempt } from '../../../lib/services/webhooks/deliver';
import type { KindHandler } from '../runner';

/** Sends one webhook attempt; the attempt's row records the outcome and schedules any retry. */
export const deliverWebhook: KindHandler<'deliver-webhook'> = {
  async run({ deliveryId }, ctx) {
    await deliverAttempt(ctx.ports, deliveryId);
  },
};
