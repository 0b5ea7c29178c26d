import { jobBodyRoute, otherMethods } from '@/lib/http/route';
import { BatchRecord, CreateBatchRequest } from '@/lib/schemas/exports';
import { createBatchExport } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const POST = jobBodyRoute(CreateBatchRequest, BatchRecord, (userId, jobId, body) =>
  createBatchExport(defaultPorts, userId, jobId, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
