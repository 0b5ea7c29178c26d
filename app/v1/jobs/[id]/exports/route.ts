import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { CreateExportRequest, ExportRecord } from '@/lib/schemas/exports';
import { createExport } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute<{ id: string }>(async ({ req, userId, params }) => ({
  body: ExportRecord.parse(
    await createExport(
      defaultPorts,
      userId,
      params.id,
      CreateExportRequest.parse(await readJson(req)),
    ),
  ),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
