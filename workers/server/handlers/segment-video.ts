import { failJob } from '../../../lib/services/jobs/finish-job';
import { segmentJob } from '../../../lib/services/jobs/segment-job';
import { primaryRender, rendersWhileSegmenting } from '../../../lib/services/renders/render-output';
import type { KindHandler } from '../runner';

export const segmentVideo: KindHandler<'segment-video'> = {
  run: ({ jobId }, ctx) =>
    segmentJob(jobId, ctx, rendersWhileSegmenting() ? primaryRender : undefined),
  onFailure: ({ jobId }, message, ctx) => failJob(ctx.ports, jobId, message),
};
