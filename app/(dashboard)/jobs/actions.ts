'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';
import { DashboardStartRequest, type JobStatusRecord } from '@/lib/schemas/jobs';
import { createJob } from '@/lib/services/jobs/create-job';
import { getJobProgress, type JobProgress } from '@/lib/services/jobs/get-job-progress';
import { quoteJobs, type JobQuote } from '@/lib/services/credits/quote-job';
import { retryJob } from '@/lib/services/jobs/retry-job';
import { type StartField, startErrorInWords } from '@/lib/services/jobs/start-errors';
import { discardUnstartedJob } from '@/lib/services/jobs/discard-job';
import { deleteJob } from '@/lib/services/jobs/delete-job';
import { ServiceError } from '@/lib/errors';
import { startJob } from '@/lib/services/jobs/start-job';
import { defaultPorts } from '@/lib/services/ports';

type Failure = { ok: false; error: string; field?: StartField };
type Result<T> = ({ ok: true } & T) | Failure;

function failure(err: unknown): Failure {
  if (err instanceof ServiceError || err instanceof z.ZodError)
    return { ok: false, ...startErrorInWords(err) };
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

/**
 * A job for a file the browser will PUT; its size is signed into the URL (S3 refuses any other).
 */
export async function createUploadAction(
  filename: string,
  contentType: string,
  size: number,
): Promise<Result<{ jobId: string; uploadUrl: string; headers: Record<string, string> }>> {
  const user = await requireUser('/jobs/new');
  try {
    const receipt = await createJob(defaultPorts, user.id, {
      filename,
      content_type: contentType || 'application/octet-stream',
      content_length: size > 0 ? size : null,
    });
    if (!('upload_url' in receipt))
      return { ok: false, error: 'The server did not issue an upload URL.' };
    return {
      ok: true,
      jobId: receipt.id,
      uploadUrl: sameOriginPath(receipt.upload_url),
      headers: receipt.instructions.headers,
    };
  } catch (err) {
    return failure(err);
  }
}

/**
 * Removes an upload the user gave up on (refused file, "Choose another", cancel), so it leaves no
 * card behind.
 */
export async function discardUploadAction(jobId: string): Promise<void> {
  const user = await requireUser('/jobs/new');
  await discardUnstartedJob(defaultPorts, user.id, jobId);
}

export async function quoteAction(
  jobIds: string[],
  model: string,
  blur: boolean,
): Promise<Result<{ quote: JobQuote }>> {
  const user = await requireUser('/jobs/new');
  try {
    return { ok: true, quote: await quoteJobs(defaultPorts, user.id, jobIds, { model, blur }) };
  } catch (err) {
    return failure(err);
  }
}

export async function startJobAction(
  jobId: string,
  request: unknown,
): Promise<Result<{ creditsUsed: number }>> {
  const user = await requireUser(`/jobs/${jobId}`);
  try {
    const started = await startJob(
      defaultPorts,
      user.id,
      jobId,
      DashboardStartRequest.parse(request),
    );
    return { ok: true, creditsUsed: started.creditsUsed };
  } catch (err) {
    return failure(err);
  }
}

export async function pollJobAction(
  jobId: string,
): Promise<Result<{ status: JobStatusRecord; progress: JobProgress | null }>> {
  const user = await requireUser(`/jobs/${jobId}`);
  try {
    return { ok: true, ...(await getJobProgress(defaultPorts, user.id, jobId)) };
  } catch (err) {
    return failure(err);
  }
}

/**
 * "Try again": a new job from the failed job's upload, opened with the same options ready to start.
 */
export async function retryJobAction(jobId: string): Promise<{ error: string }> {
  const user = await requireUser(`/jobs/${jobId}`);
  let created: { jobId: string };
  try {
    created = await retryJob(defaultPorts, user.id, jobId);
  } catch (err) {
    return { error: failure(err).error };
  }
  redirect(`/jobs/${created.jobId}?from=${jobId}`);
}

export async function deleteJobAction(jobId: string): Promise<{ error: string }> {
  const user = await requireUser('/jobs');
  try {
    await deleteJob(defaultPorts, user.id, jobId);
  } catch (err) {
    return { error: failure(err).error };
  }
  redirect('/jobs?deleted=1');
}
