import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { givenStartFields, StartJobRequest, StartResponse } from '@/lib/schemas/jobs';
import { startJob } from '@/lib/services/start-job';

export const POST = apiRoute<{ id: string }>(
  async ({ req, userId, params }) => {
    const body = await readJson(req);
    return { body: StartResponse.parse(await startJob(userId, params.id, StartJobRequest.parse(body), givenStartFields(body))) };
  },
  { countsAsStart: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
