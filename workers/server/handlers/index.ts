import type { HandlerMap } from '../runner';
import { deliverWebhook } from './deliver-webhook';
import { processVideo } from './process-video';

/** One handler per kind in lib/queue/catalogue.ts (the type requires every kind). */
export const handlers: HandlerMap = {
  'process-video': processVideo,
  'deliver-webhook': deliverWebhook,
};
