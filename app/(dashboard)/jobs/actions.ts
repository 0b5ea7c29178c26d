'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';
import { StartJobRequest, type JobStatusRecord } from '@/lib/schemas/jobs';
import { createJob } from '@/lib/services/create-job';
import { quoteJob, type JobQuote } from '@/lib/services/dashboard/quote-job';
import { deleteJob } from '@/lib/services/delete-job';
import { ServiceError } from '@/lib/errors';
import { getJobStatus } from '@/lib/services/get-job-status';
import { startJob } from '@/lib/services/start-job';

type Result<T> = ({ ok: true } & T) | { ok: false; error: string };

function failure(err: unknown): { ok: false; error: string } {
  if (err instanceof ServiceError) return { ok: false, error: err.details ? `${err.message}. ${err.details}` : err.message };
  if (err instanceof z.ZodError) return { ok: false, error: err.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ') };
  throw err;
}

/**
 * Same-origin signed URLs become paths, so the browser's PUT never depends on PUBLIC_URL
 * matching the address the dashboard was opened with.
 */
function sameOriginPath(url: string): string {
  const base = env().PUBLIC_URL.replace(/\/$/, '');
  return url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}

export async function createUploadAction(
  filename: string,
  contentType: string,
): Promise<Result<{ jobId: string; uploadUrl: string; headers: Record<string, string> }>> {
  const user = await requireUser('/jobs/new');
  try {
    const receipt = await createJob(user.id, { filename, content_type: contentType || 'application/octet-stream' });
    if (!('upload_url' in receipt)) return { ok: false, error: 'The server did not issue an upload URL.' };
    return { ok: true, jobId: receipt.id, uploadUrl: sameOriginPath(receipt.upload_url), headers: receipt.instructions.headers };
  } catch (err) {
    return failure(err);
  }
}

export async function quoteAction(jobId: string, model: string, blur: boolean): Promise<Result<{ quote: JobQuote }>> {
  const user = await requireUser('/jobs/new');
  try {
    return { ok: true, quote: await quoteJob(user.id, jobId, { model, blur }) };
  } catch (err) {
    return failure(err);
  }
}

export async function startJobAction(jobId: string, request: unknown): Promise<Result<{ creditsUsed: number }>> {
  const user = await requireUser('/jobs/new');
  try {
    const started = await startJob(user.id, jobId, StartJobRequest.parse(request));
    return { ok: true, creditsUsed: started.creditsUsed };
  } catch (err) {
    return failure(err);
  }
}

export async function pollJobAction(jobId: string): Promise<Result<{ status: JobStatusRecord }>> {
  const user = await requireUser(`/jobs/${jobId}`);
  try {
    return { ok: true, status: await getJobStatus(user.id, jobId) };
  } catch (err) {
    return failure(err);
  }
}

export async function deleteJobAction(jobId: string): Promise<{ error: string }> {
  const user = await requireUser('/jobs');
  try {
    await deleteJob(user.id, jobId);
  } catch (err) {
    return { error: failure(err).error };
  }
  redirect('/jobs?deleted=1');
}
