import { failStoredBatch, renderStoredBatch } from '../../../lib/services/renders/render-batch';
import type { KindHandler } from '../runner';

export const renderBatch: KindHandler<'render-batch'> = {
  run: ({ batchId }, ctx) => renderStoredBatch(batchId, ctx),
  onFailure: ({ batchId }, message, ctx) => failStoredBatch(ctx.ports, batchId, message),
};
