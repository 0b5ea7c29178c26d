import { ServiceError } from '../../errors';
import { transact } from '../../queue';
import type { MaskVersionList } from '../../schemas/refinements';
import { listMaskVersions } from './list-mask-versions';
import { RUNNING } from './mask-versions';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

/**
 * `POST /v1/jobs/{id}/mask-versions/{version}/activate`: makes a completed version the one
 * exports use. Refused (409) while a refinement runs, since it refines the active version.
 */
export async function activateVersion(
  ports: Ports,
  userId: string,
  jobId: string,
  version: number,
): Promise<MaskVersionList> {
  const job = await ownedJob(ports, userId, jobId);
  if (job.status !== 'completed')
    throw new ServiceError(
      'invalid',
      `Mask versions can be switched on a completed job; this one is ${job.status}`,
    );
  await transact(ports, async (tx) => {
    await tx.job.update({ where: { id: jobId }, data: { updatedAt: new Date() } });
    if (
      await tx.refinement.findFirst({
        where: { jobId, status: { in: RUNNING } },
        select: { id: true },
      })
    ) {
      throw new ServiceError(
        'conflict',
        'A refinement of this job is running',
        'Switch versions once it has finished.',
      );
    }
    const mask = await tx.maskVersion.findFirst({ where: { jobId, version, status: 'completed' } });
    if (!mask)
      throw new ServiceError(
        'invalid',
        `Mask version ${version} is not a completed version of this job`,
      );
    await tx.job.update({ where: { id: jobId }, data: { activeMaskVersion: version } });
  });
  return listMaskVersions(ports, userId, jobId);
}
