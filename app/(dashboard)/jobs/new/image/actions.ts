'use server';

import { z } from 'zod';
import { requireUser } from '@/lib/auth/current-user';
import { ServiceError } from '@/lib/errors';
import { ImageToVideoRequest } from '@/lib/schemas/image-to-video';
import { createStillJob } from '@/lib/services/jobs/create-job';
import { defaultPorts } from '@/lib/services/ports';

/**
 * The image-to-video page: a job for a still (POST /v1/h3/image-to-video's service and rules), with
 * its signed upload URL.
 */
export async function createStillUploadAction(
  request: Record<string, unknown>,
): Promise<
  | { ok: true; jobId: string; uploadUrl: string; headers: Record<string, string> }
  | { ok: false; error: string }
> {
  const user = await requireUser('/jobs/new/image');
  try {
    const job = await createStillJob(defaultPorts, user.id, ImageToVideoRequest.parse(request));
    if (!('upload_url' in job))
      return { ok: false, error: 'The server did not issue an upload URL.' };
    return {
      ok: true,
      jobId: job.id,
      uploadUrl: job.upload_url,
      headers: job.instructions.headers,
    };
  } catch (err) {
    if (err instanceof ServiceError)
      return { ok: false, error: err.details ? `${err.message}. ${err.details}` : err.message };
    if (err instanceof z.ZodError)
      return {
        ok: false,
        error: err.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '),
      };
    throw err;
  }
}
