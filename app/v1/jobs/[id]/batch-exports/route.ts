import { readJson } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { BatchRecord, CreateBatchRequest } from '@/lib/schemas/exports';
import { createBatchExport } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute<{ id: string }>(async ({ req, userId, params }) => ({
  body: BatchRecord.parse(
    await createBatchExport(
      defaultPorts,
      userId,
      params.id,
      CreateBatchRequest.parse(await readJson(req)),
    ),
  ),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
