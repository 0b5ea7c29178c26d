import { jobBodyRoute, otherMethods } from '@/lib/http/route';
import { CreateExportRequest, ExportRecord } from '@/lib/schemas/exports';
import { createExport } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

export const POST = jobBodyRoute(CreateExportRequest, ExportRecord, (userId, jobId, body) =>
  createExport(defaultPorts, userId, jobId, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
