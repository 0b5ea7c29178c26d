import type { Job, MaskVersion } from '../../db/generated/client';
import { transaction } from '../../db/transaction';
import { PermanentJobError, type Tx } from '../../queue';
import { storageKeys } from '../../storage';
import type { Ports } from '../ports';

/**
 * The lifecycle of a job's mask versions. Each segmentation or refinement writes a new numbered
 * version (FFV1 grey in Matroska, 255 = subject); `Job.activeMaskVersion` names the one exports
 * use unless they pin another. Versions are never overwritten, and may have gaps after failures.
 */

/** The statuses of a refinement, and of the version it writes, until it has finished. */
export const RUNNING = ['queued', 'processing'];

/** The version a job's first segmentation writes. */
export const SEGMENTATION_VERSION = 1;

/** Stores `file` as a completed version of the job's mask. */
export async function storeMaskVersion(
  ports: Ports,
  jobId: string,
  version: number,
  file: string,
  source: string,
): Promise<void> {
  const key = storageKeys.mask(jobId, version);
  await ports.storage.putFile(key, file, { move: true });
  await ports.db.maskVersion.upsert({
    where: { jobId_version: { jobId, version } },
    create: { jobId, version, status: 'completed', storageKey: key, source },
    update: { status: 'completed', storageKey: key },
  });
}

/** Makes a completed version the one exports use. */
export async function activateMaskVersion(tx: Tx, jobId: string, version: number): Promise<void> {
  await tx.job.update({ where: { id: jobId }, data: { activeMaskVersion: version } });
}

/** The segmentation's mask: version 1, active. */
export async function storeSegmentationMask(
  ports: Ports,
  jobId: string,
  file: string,
): Promise<void> {
  await storeMaskVersion(ports, jobId, SEGMENTATION_VERSION, file, 'segmentation');
  await transaction(ports.db, (tx) => activateMaskVersion(tx, jobId, SEGMENTATION_VERSION));
}

/** A completed version of the job's mask (the active one when `version` is null), or null. */
export async function completedMaskVersion(
  ports: Ports,
  job: Pick<Job, 'id' | 'activeMaskVersion'>,
  version: number | null,
): Promise<MaskVersion | null> {
  const v = version ?? job.activeMaskVersion;
  if (v === null) return null;
  return ports.db.maskVersion.findFirst({
    where: { jobId: job.id, version: v, status: 'completed', storageKey: { not: null } },
  });
}

/**
 * A local file with the version's mask, for ffmpeg (a download into scratchDir where storage is
 * remote).
 */
export async function readMask(
  ports: Ports,
  mask: MaskVersion,
  scratchDir: string,
): Promise<string> {
  if (!mask.storageKey) throw new PermanentJobError(`Mask version ${mask.version} has no file.`);
  return ports.storage.localFile(mask.storageKey, scratchDir);
}
