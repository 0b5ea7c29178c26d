import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { givenStartFields, StartJobRequest, StartResponse } from '@/lib/schemas/jobs';
import { startJob } from '@/lib/services/jobs/start-job';
import { defaultPorts } from '@/lib/services/ports';

// A new start counts against the key's starts a minute; a replay of one does not.
export const POST = apiRoute<{ id: string }>(async ({ req, userId, params, admitStart }) => {
  const body = await readJson(req);
  return {
    body: StartResponse.parse(
      await startJob(defaultPorts, userId, params.id, StartJobRequest.parse(body), {
        given: givenStartFields(body),
        admitStart,
      }),
    ),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
