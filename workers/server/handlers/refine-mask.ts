import { failRefinement, runRefinement } from '../../../lib/services/refinements/run-refinement';
import type { KindHandler } from '../runner';

export const refineMask: KindHandler<'refine-mask'> = {
  run: ({ refinementId }, ctx) => runRefinement(refinementId, ctx),
  onFailure: ({ refinementId }, message, ctx) => failRefinement(ctx.ports, refinementId, message),
};
