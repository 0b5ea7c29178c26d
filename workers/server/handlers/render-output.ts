import { failStoredOutput, renderStoredOutput } from '../../../lib/services/renders/render-output';
import type { KindHandler } from '../runner';

export const renderOutput: KindHandler<'render-output'> = {
  run: ({ outputId }, ctx) => renderStoredOutput(outputId, ctx),
  onFailure: ({ outputId }, message, ctx) => failStoredOutput(ctx.ports, outputId, message),
};
