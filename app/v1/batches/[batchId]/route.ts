import { apiRoute, otherMethods } from '@/lib/http/route';
import { BatchRecord } from '@/lib/schemas/exports';
import { getBatch } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute<{ batchId: string }>(async ({ userId, params }) => ({
  body: BatchRecord.parse(await getBatch(defaultPorts, userId, params.batchId)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
