import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ServiceError } from '../../errors';
import { withScratch } from '../../storage/scratch';
import type { Background } from '../../schemas/background';
import { storageKeys } from '../../storage';
import { startedRequest } from './started-request';
import { undoJobCreation } from './discard-job';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

/**
 * "Try again" for a failed job: a new job, ready to start, with a copy of the same upload and
 * its media facts. The failed job (its refund and its message) stays as it was.
 */
export async function retryJob(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ jobId: string }> {
  const old = await ownedJob(ports, userId, jobId);
  if (old.status !== 'failed')
    throw new ServiceError('conflict', 'Only a failed job can be tried again');
  if (!old.sourceKey || !(await ports.storage.stat(old.sourceKey))) {
    throw new ServiceError('invalid', 'The original video of this job is gone; upload it again');
  }
  const job = await ports.db.job.create({
    data: {
      userId,
      filename: old.filename,
      contentType: old.contentType,
      sourceUrl: old.sourceUrl,
      sourceBytes: old.sourceBytes,
      container: old.container,
      lengthSeconds: old.lengthSeconds,
      fps: old.fps,
      width: old.width,
      height: old.height,
      frameCount: old.frameCount,
      hasAudio: old.hasAudio,
    },
  });
  try {
    const key = storageKeys.source(
      job.id,
      randomUUID().slice(0, 8),
      path.extname(old.sourceKey).slice(1) || 'mp4',
    );
    const sourceKey = old.sourceKey;
    await withScratch(`retry-${job.id}`, async (dir) =>
      ports.storage.putFile(key, await ports.storage.localFile(sourceKey, dir)),
    );
    await ports.db.job.update({
      where: { id: job.id },
      data: { status: 'uploaded', sourceKey: key, uploadedAt: new Date() },
    });
  } catch (e) {
    await undoJobCreation(ports, job.id);
    throw e;
  }
  return { jobId: job.id };
}

/** The start options of one of the account's jobs, to offer them again (e.g. after "Try again"). */
export async function startOptionsOf(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{
  model: string | null;
  background: Background | null;
  webhookUrl: string | null;
} | null> {
  const job = await ports.db.job.findFirst({ where: { id: jobId, userId } });
  if (!job) return null;
  return {
    model: job.model,
    background: startedRequest(job).background,
    webhookUrl: job.webhookUrl,
  };
}
