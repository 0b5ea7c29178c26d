import { apiRoute, otherMethods } from '@/lib/http/route';
import { JobStatusRecord } from '@/lib/schemas/jobs';
import { getJobStatus } from '@/lib/services/jobs/get-job-status';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute<{ id: string }>(async ({ userId, params }) => ({
  body: JobStatusRecord.parse(await getJobStatus(defaultPorts, userId, params.id)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
