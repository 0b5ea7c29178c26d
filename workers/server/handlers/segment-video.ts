import { failJob } from '../../../lib/services/jobs/finish-job';
import { segmentJob } from '../../../lib/services/jobs/segment-job';
import type { KindHandler } from '../runner';

export const segmentVideo: KindHandler<'segment-video'> = {
  run: ({ jobId }, ctx) => segmentJob(jobId, ctx),
  onFailure: ({ jobId }, message, ctx) => failJob(jobId, message, ctx.workerId),
};
