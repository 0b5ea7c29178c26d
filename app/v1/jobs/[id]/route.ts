import { apiRoute, otherMethods } from '@/lib/http/route';
import { DeleteJobResponse } from '@/lib/schemas/jobs';
import { deleteJob } from '@/lib/services/jobs/delete-job';

export const DELETE = apiRoute<{ id: string }>(async ({ userId, params }) => ({
  body: DeleteJobResponse.parse(await deleteJob(userId, params.id)),
}));

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE');
