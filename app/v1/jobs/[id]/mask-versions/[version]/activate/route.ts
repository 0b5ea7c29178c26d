import { apiRoute, otherMethods } from '@/lib/http/route';
import { ServiceError } from '@/lib/errors';
import { MaskVersionList } from '@/lib/schemas/refinements';
import { activateVersion } from '@/lib/services/masks/activate-mask-version';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute<{ id: string; version: string }>(async ({ userId, params }) => {
  const version = Number(params.version);
  if (!Number.isInteger(version) || version < 1)
    throw new ServiceError('invalid', 'The mask version must be a whole number from 1');
  return {
    body: MaskVersionList.parse(await activateVersion(defaultPorts, userId, params.id, version)),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
