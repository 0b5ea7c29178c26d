import path from 'node:path';
import type { Batch, Output } from '../../db/generated/client';
import { BATCH_STATUSES, type BatchRecord, type ExportRecord } from '../../schemas/exports';
import { metadataColumn, storedTransform } from './columns';
import type { Ports } from '../ports';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** "talk.mov" + "keyout" + a ".webm" key → "talk-keyout.webm": what a download is saved as. */
export function downloadName(filename: string, key: string, suffix: string): string {
  const stem = path.parse(filename).name || 'video';
  return `${stem}-${suffix}${path.extname(key)}`;
}

/**
 * An output's part of its download name: "keyout" for the start's result, else e.g.
 * "webm_vp9-1a2b3c4d".
 */
const outputSuffix = (output: Pick<Output, 'id' | 'format' | 'role'>) =>
  output.role === 'primary' ? 'keyout' : `${output.format}-${output.id.slice(0, 8)}`;

/**
 * An output as the API serves it: its receipt; when completed, signed URLs (one hour) and the
 * validated metadata; when failed, its error. `status` stays one of the spec's three export
 * states (a running export reads `queued` with `started_at` set).
 */
export async function exportRecord(
  ports: Ports,
  output: Output,
  filename: string,
): Promise<ExportRecord> {
  const completed = output.status === 'completed' && output.storageKey && output.metadataJson;
  const status =
    output.status === 'completed' || output.status === 'failed' ? output.status : 'queued';
  return {
    export_id: output.id,
    job_id: output.jobId,
    format: output.format,
    status,
    transform: storedTransform(output),
    mask_version: output.maskVersion,
    batch_id: output.batchId,
    created_at: output.createdAt.toISOString(),
    started_at: iso(output.startedAt),
    completed_at: iso(output.completedAt),
    ...(completed
      ? {
          output_url: await ports.storage.signedUrl(output.storageKey!, {
            method: 'GET',
            filename: downloadName(filename, output.storageKey!, outputSuffix(output)),
          }),
          ...(output.posterKey
            ? { poster_url: await ports.storage.signedUrl(output.posterKey, { method: 'GET' }) }
            : {}),
          metadata: metadataColumn.read(output.metadataJson!),
        }
      : {}),
    ...(output.status === 'failed' ? { error: output.error ?? 'The export failed.' } : {}),
  };
}

/**
 * A batch's status from its exports': all queued, some still going, all done, all failed, or done
 * with failures.
 */
export function batchStatus(outputs: Pick<Output, 'status'>[]): (typeof BATCH_STATUSES)[number] {
  const count = (s: string) => outputs.filter((o) => o.status === s).length;
  const [done, failed] = [count('completed'), count('failed')];
  if (done + failed < outputs.length)
    return done + failed + count('processing') === 0 ? 'queued' : 'processing';
  if (failed === 0) return 'completed';
  return done === 0 ? 'failed' : 'partial';
}

export async function batchRecord(
  ports: Ports,
  batch: Batch,
  outputs: Output[],
  filename: string,
): Promise<BatchRecord> {
  return {
    batch_id: batch.id,
    job_id: batch.jobId,
    status: batchStatus(outputs),
    use_gpu: batch.useGpu,
    total_exports: outputs.length,
    completed_exports: outputs.filter((o) => o.status === 'completed').length,
    failed_exports: outputs.filter((o) => o.status === 'failed').length,
    created_at: batch.createdAt.toISOString(),
    exports: await Promise.all(outputs.map((o) => exportRecord(ports, o, filename))),
  };
}
