import { apiRoute, otherMethods } from '@/lib/http/route';
import { ExportRecord } from '@/lib/schemas/exports';
import { getExport } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute<{ exportId: string }>(async ({ userId, params }) => ({
  body: ExportRecord.parse(await getExport(defaultPorts, userId, params.exportId)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
