import { apiRoute, otherMethods } from '@/lib/http/route';
import { MaskVersionList } from '@/lib/schemas/refinements';
import { listMaskVersions } from '@/lib/services/refinements/refine-mask';

export const GET = apiRoute<{ id: string }>(async ({ userId, params }) => ({
  body: MaskVersionList.parse(await listMaskVersions(userId, params.id)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
