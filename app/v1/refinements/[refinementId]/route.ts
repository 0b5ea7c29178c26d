import { apiRoute, otherMethods } from '@/lib/http/route';
import { RefinementRecord } from '@/lib/schemas/refinements';
import { getRefinement } from '@/lib/services/refinements/request-refinement';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute<{ refinementId: string }>(async ({ userId, params }) => ({
  body: RefinementRecord.parse(await getRefinement(defaultPorts, userId, params.refinementId)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
