import { jobNotFound } from '../../errors';
import type { MaskVersionList } from '../../schemas/refinements';
import type { Ports } from '../ports';

/** `GET /v1/jobs/{id}/mask-versions`: every version of the caller's job, oldest first. */
export async function listMaskVersions(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<MaskVersionList> {
  const job = await ports.db.job.findFirst({
    where: { id: jobId, userId },
    include: {
      masks: { orderBy: { version: 'asc' } },
      refinements: { select: { id: true, version: true } },
    },
  });
  if (!job) throw jobNotFound();
  return {
    job_id: job.id,
    active_version: job.activeMaskVersion,
    versions: job.masks.map((m) => ({
      version: m.version,
      status: m.status as MaskVersionList['versions'][number]['status'],
      source: m.source === 'refinement' ? 'refinement' : 'segmentation',
      active: m.version === job.activeMaskVersion,
      refinement_id: job.refinements.find((r) => r.version === m.version)?.id ?? null,
      created_at: m.createdAt.toISOString(),
    })),
  };
}
