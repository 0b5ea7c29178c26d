import { getBalance } from '../../billing/ledger';
import { apiModel, isApiModel } from '../../../engine/api-models';
import { BLUR_RATE, fpsMultiplier, priceJob } from '../../billing/pricing';
import { settleDirectUpload } from '../uploads/direct-upload';
import { jobNotFound, ServiceError } from '../../errors';
import type { Ports } from '../ports';
import { CREDIT_PACKS } from './checkout';

export interface QuotedJob {
  jobId: string;
  credits: number;
  lengthSeconds: number;
  fps: number;
  width: number | null;
  height: number | null;
  frameCount: number | null;
  /** Above 30 fps every second costs fps/30 times as much. */
  fpsMultiplier: number;
}

export interface JobQuote {
  /** What start-job will charge for all the jobs together: the sum of each job's own charge. */
  credits: number;
  balance: number;
  jobs: QuotedJob[];
  /** Credits per second of video: the model's rate, and the blur render's when asked for. */
  modelRate: number;
  blurRate: number;
  /** The price of a credit in the cheapest and dearest packs, in US cents. */
  creditCents: { min: number; max: number };
}

/**
 * The exact charge start-job will make for these uploaded jobs with these options, its parts, and
 * the balance.
 */
export async function quoteJobs(
  ports: Ports,
  userId: string,
  jobIds: string[],
  opts: { model: string; blur: boolean },
): Promise<JobQuote> {
  if (!isApiModel(opts.model)) throw new ServiceError('invalid', `Unknown model ${opts.model}`);
  const model = opts.model;
  const find = () => ports.db.job.findMany({ where: { id: { in: jobIds }, userId } });
  let rows = await find();
  // Uploads PUT straight to S3 are checked when first looked at (a no-op with local storage).
  const settled = await Promise.all(
    rows.filter((r) => r.status === 'created').map((r) => settleDirectUpload(ports, r.id)),
  );
  if (settled.some(Boolean)) rows = await find();
  const jobs = jobIds.map((id): QuotedJob => {
    const job = rows.find((r) => r.id === id);
    if (!job) throw jobNotFound();
    if (!job.lengthSeconds || !job.fps)
      throw new ServiceError('invalid', 'The video has not been uploaded yet');
    return {
      jobId: job.id,
      credits: priceJob({
        model,
        durationSeconds: job.lengthSeconds,
        fps: job.fps,
        blur: opts.blur,
      }),
      lengthSeconds: job.lengthSeconds,
      fps: job.fps,
      width: job.width,
      height: job.height,
      frameCount: job.frameCount,
      fpsMultiplier: fpsMultiplier(job.fps),
    };
  });
  const perCredit = CREDIT_PACKS.map((p) => p.priceCents / p.credits);
  return {
    credits: jobs.reduce((sum, j) => sum + j.credits, 0),
    balance: (await getBalance(userId, ports.db)).remaining,
    jobs,
    modelRate: apiModel(model).creditsPerSecond,
    blurRate: opts.blur ? BLUR_RATE : 0,
    creditCents: { min: Math.min(...perCredit), max: Math.max(...perCredit) },
  };
}
