import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { StartJobRequest, StartResponse } from '@/lib/schemas/jobs';
import { startJob } from '@/lib/services/start-job';

export const POST = apiRoute<{ id: string }>(
  async ({ req, userId, params }) => ({
    body: StartResponse.parse(await startJob(userId, params.id, StartJobRequest.parse(await readJson(req)))),
  }),
  { countsAsStart: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
