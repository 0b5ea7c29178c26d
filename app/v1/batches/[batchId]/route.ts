import { apiRoute, otherMethods } from '@/lib/http/route';
import { BatchRecord } from '@/lib/schemas/exports';
import { getBatch } from '@/lib/services/outputs/exports';

export const GET = apiRoute<{ batchId: string }>(async ({ userId, params }) => ({
  body: BatchRecord.parse(await getBatch(userId, params.batchId)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
