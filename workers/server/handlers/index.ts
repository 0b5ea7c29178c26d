import type { HandlerMap } from '../runner';
import { deliverWebhook } from './deliver-webhook';
import { refineMask } from './refine-mask';
import { renderBatch } from './render-batch';
import { renderOutput } from './render-output';
import { segmentVideo } from './segment-video';

/**
 * One handler per kind in lib/queue/job-kinds.ts (the type requires every kind); each a thin
 * adapter over a service.
 */
export const handlers: HandlerMap = {
  'segment-video': segmentVideo,
  'render-output': renderOutput,
  'render-batch': renderBatch,
  'refine-mask': refineMask,
  'deliver-webhook': deliverWebhook,
};
