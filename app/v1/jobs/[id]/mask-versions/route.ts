import { apiRoute, otherMethods } from '@/lib/http/route';
import { MaskVersionList } from '@/lib/schemas/refinements';
import { listMaskVersions } from '@/lib/services/masks/list-mask-versions';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute<{ id: string }>(async ({ userId, params }) => ({
  body: MaskVersionList.parse(await listMaskVersions(defaultPorts, userId, params.id)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
