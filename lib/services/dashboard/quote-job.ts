import { getBalance } from '../../billing/ledger';
import { isApiModel } from '../../../engine/api-models';
import { priceJob } from '../../billing/pricing';
import { db } from '../../db/client';
import { settleDirectUpload } from '../direct-upload';
import { jobNotFound } from '../../services/errors';
import { ServiceError } from '../../errors';

export interface JobQuote {
  credits: number;
  balance: number;
  lengthSeconds: number;
  fps: number;
  width: number | null;
  height: number | null;
  frameCount: number | null;
}

/** The exact charge start-job will make for this job with these options, and the balance. */
export async function quoteJob(userId: string, jobId: string, opts: { model: string; blur: boolean }): Promise<JobQuote> {
  if (!isApiModel(opts.model)) throw new ServiceError('invalid', `Unknown model ${opts.model}`);
  let job = await db().job.findFirst({ where: { id: jobId, userId } });
  if (!job) throw jobNotFound();
  if (job.status === 'created' && (await settleDirectUpload(job.id))) job = await db().job.findUniqueOrThrow({ where: { id: job.id } });
  if (!job.lengthSeconds || !job.fps) throw new ServiceError('invalid', 'The video has not been uploaded yet');
  const balance = await getBalance(userId);
  return {
    credits: priceJob({ model: opts.model, durationSeconds: job.lengthSeconds, fps: job.fps, blur: opts.blur }),
    balance: balance.remaining,
    lengthSeconds: job.lengthSeconds,
    fps: job.fps,
    width: job.width,
    height: job.height,
    frameCount: job.frameCount,
  };
}
