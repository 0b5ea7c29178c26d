import { failJob } from '../../../lib/services/jobs/finish-job';
import { segmentJob } from '../../../lib/services/jobs/segment-job';
import { primaryRender } from '../../../lib/services/renders/render-output';
import type { KindHandler } from '../runner';

export const segmentVideo: KindHandler<'segment-video'> = {
  run: ({ jobId }, ctx) => segmentJob(jobId, ctx, primaryRender),
  onFailure: ({ jobId }, message) => failJob(jobId, message),
};
