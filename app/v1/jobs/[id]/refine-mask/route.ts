import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { IdempotencyKey, RefinementRecord, RefineMaskRequest } from '@/lib/schemas/refinements';
import { requestRefinement } from '@/lib/services/refinements/request-refinement';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute<{ id: string }>(async ({ req, userId, params }) => {
  const key = req.headers.get('idempotency-key');
  const body = RefineMaskRequest.parse(await readJson(req));
  return {
    body: RefinementRecord.parse(
      await requestRefinement(
        defaultPorts,
        userId,
        params.id,
        body,
        key === null ? null : IdempotencyKey.parse(key),
      ),
    ),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
