import { apiRoute, otherMethods } from '@/lib/http/route';
import { DeleteJobResponse } from '@/lib/schemas/jobs';
import { deleteJob } from '@/lib/services/jobs/delete-job';
import { defaultPorts } from '@/lib/services/ports';

export const DELETE = apiRoute<{ id: string }>(async ({ userId, params }) => ({
  body: DeleteJobResponse.parse(await deleteJob(defaultPorts, userId, params.id)),
}));

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE');
