import type { Background } from '../../schemas/background';
import type { JobStatusRecord } from '../../schemas/jobs';
import { downloadName } from '../outputs/records';
import { getJobStatus } from './get-job-status';
import { startedRequest } from './started-request';
import type { Ports } from '../ports';

export interface DownloadItem {
  label: string;
  format: string;
  url: string;
  bytes: number | null;
  filename: string;
}

export interface JobDetail {
  status: JobStatusRecord;
  model: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  frameCount: number | null;
  sourceBytes: number | null;
  creditsUsed: number | null;
  startedAt: Date | null;
  completedAt: Date | null;
  background: Background | null;
  sourceUrl: string | null;
  downloads: DownloadItem[];
}

/**
 * Everything the job page shows: the API's status record, plus every completed output and mask
 * version as a signed download with its size, and a signed URL of the original for the
 * before/after player.
 */
export async function getJobDetail(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<JobDetail> {
  const status = await getJobStatus(ports, userId, jobId);
  const job = await ports.db.job.findFirstOrThrow({
    where: { id: jobId, userId },
    include: { outputs: { orderBy: { createdAt: 'asc' } }, masks: { orderBy: { version: 'asc' } } },
  });
  const signed = async (
    key: string,
    label: string,
    format: string,
    suffix: string,
  ): Promise<DownloadItem> => {
    const filename = downloadName(job.filename, key, suffix);
    return {
      label,
      format,
      url: await ports.storage.signedUrl(key, { method: 'GET', filename }),
      bytes: (await ports.storage.stat(key))?.bytes ?? null,
      filename,
    };
  };
  const downloads: DownloadItem[] = [];
  // Exports have a panel of their own (lib/services/outputs/exports.ts listJobExports).
  for (const o of job.outputs) {
    if (o.role !== 'primary' || o.status !== 'completed' || !o.storageKey) continue;
    downloads.push(await signed(o.storageKey, 'Result', o.format, 'keyout'));
  }
  for (const m of job.masks) {
    if (m.status !== 'completed' || !m.storageKey) continue;
    const active = m.version === job.activeMaskVersion;
    downloads.push(
      await signed(
        m.storageKey,
        active ? 'Mask' : `Mask version ${m.version}`,
        'mask (lossless greyscale Matroska)',
        `mask-v${m.version}`,
      ),
    );
  }
  return {
    status,
    model: job.model,
    width: job.width,
    height: job.height,
    fps: job.fps,
    frameCount: job.frameCount,
    sourceBytes: job.sourceBytes,
    creditsUsed: job.creditsUsed,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    background: startedRequest(job).background,
    sourceUrl: job.sourceKey
      ? await ports.storage.signedUrl(job.sourceKey, { method: 'GET' })
      : null,
    downloads,
  };
}
