import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { syntheticClip } from '../../../lib/media/fixtures';
import { api, remainingCredits, runJobToCompletion } from './api';
import type { Stack } from './stack';

export interface Receipt {
  id: string;
  status: string;
  upload_url: string;
  expires_at: string;
  instructions: { method: string; headers: Record<string, string>; note: string };
  [k: string]: unknown;
}

/** GET /v1/jobs/{id}/status: what a client checks after its upload. */
function statusOf(stack: Stack, key: string, id: string) {
  return api<{ status: string; message: string | null }>(stack, 'GET', `/v1/jobs/${id}/status`, {
    key,
  });
}

/** POST /v1/jobs with filename + content_type, as the SDKs do. */
export async function createJob(
  stack: Stack,
  key: string,
  filename = 'clip.mp4',
  contentType = 'video/mp4',
): Promise<Receipt> {
  const r = await api<Receipt>(stack, 'POST', '/v1/jobs', {
    key,
    body: { filename, content_type: contentType },
  });
  if (r.status !== 200) throw new Error(`create job answered ${r.status}: ${r.text}`);
  return r.body;
}

/** POST /v1/jobs with the video as the multipart form's `file`, named `filename`. */
export function postMultipartJob(
  stack: Stack,
  key: string,
  file: string,
  filename: string,
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'video/mp4' }), filename);
  return fetch(`${stack.baseUrl}/v1/jobs`, {
    method: 'POST',
    headers: { 'X-Api-Key': key },
    body: form,
  });
}

/**
 * One PUT of the whole file (a path, or its bytes) to the signed upload URL, no API key, with the
 * given Content-Type.
 */
export async function putUpload(
  receipt: Receipt,
  file: string | Uint8Array<ArrayBuffer>,
): Promise<Response> {
  return fetch(receipt.upload_url, {
    method: 'PUT',
    headers: { 'Content-Type': receipt.instructions.headers['Content-Type'] ?? 'video/mp4' },
    body: typeof file === 'string' ? fs.readFileSync(file) : file,
  });
}

/**
 * Uploads a file the checks must refuse and returns why, on either stack: our upload route
 * answers the PUT itself with the error body; a PUT straight into S3 is taken by the store, and
 * the status call a client makes next checks it, deletes it and leaves the reason in `message`.
 * Either way the job must still be `created` (what is stored is for the caller to check).
 */
export async function refusedUpload(
  stack: Stack,
  key: string,
  receipt: Receipt,
  file: string | Uint8Array<ArrayBuffer>,
): Promise<{ status: number; reason: string }> {
  const put = await putUpload(receipt, file);
  const refusal =
    stack.kind === 'embedded'
      ? { status: put.status, reason: ((await put.json()) as { error: string }).error }
      : null;
  if (!refusal && put.status !== 200)
    throw new Error(`the store answered the PUT ${put.status}: ${await put.text()}`);
  const status = await statusOf(stack, key, receipt.id);
  if (status.body.status !== 'created')
    throw new Error(`the refused upload left the job ${status.body.status}`);
  if (refusal) return refusal;
  const reason = /^The upload was refused: (.*)$/.exec(status.body.message ?? '')?.[1];
  if (!reason) throw new Error(`the upload into S3 was not refused: ${status.text}`);
  return { status: put.status, reason };
}

/**
 * A job whose video is uploaded and probed, ready to start. A PUT straight into S3 is checked
 * when the job is next used: the status call a client makes next does it on either stack.
 */
export async function uploadedJob(stack: Stack, key: string, file: string): Promise<string> {
  const receipt = await createJob(stack, key, path.basename(file));
  const res = await putUpload(receipt, file);
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const status = await statusOf(stack, key, receipt.id);
  if (status.body.status !== 'uploaded')
    throw new Error(
      `the uploaded job is ${status.body.status}: ${status.body.message ?? status.text}`,
    );
  return receipt.id;
}

/**
 * A job of `file` that was uploaded, started with `body` and completed within `timeoutMs`; throws
 * with the answer, or the failure and the stack's logs, otherwise.
 */
export async function completedJob(
  stack: Stack,
  key: string,
  file: string,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<string> {
  const id = await uploadedJob(stack, key, file);
  await runJobToCompletion(stack, key, id, body, { timeoutMs });
  return id;
}

/**
 * Starts a job of a synthetic clip `seconds` long (64x64 at 12 fps, written in `dir`) with `body`,
 * for an output that caps the source's length: the start must answer 400, charge nothing and leave
 * the job uploaded. Returns the error it gave.
 */
export async function refusedLongSource(
  stack: Stack,
  key: string,
  dir: string,
  seconds: number,
  body: Record<string, unknown>,
): Promise<string> {
  const long = await syntheticClip(path.join(dir, 'long.mp4'), { seconds, size: '64x64', fps: 12 });
  const id = await uploadedJob(stack, key, long);
  const before = await remainingCredits(stack, key);
  const r = await api<{ error: string }>(stack, 'POST', `/v1/jobs/${id}/start`, { key, body });
  expect(r.status, r.text).toBe(400);
  expect(await remainingCredits(stack, key)).toBe(before);
  const job = await api<{ status: string }>(stack, 'GET', `/v1/jobs/${id}/status`, { key });
  expect(job.body.status).toBe('uploaded');
  return r.body.error;
}

/**
 * POST /v1/jobs/{id}/start with service-light over a composition background, `composition` as the
 * public API takes it (template, background_url…); the answer, whatever its status.
 */
export function startComposition(
  stack: Stack,
  key: string,
  id: string,
  composition: Record<string, unknown>,
) {
  return api<{ error?: string; details?: string }>(stack, 'POST', `/v1/jobs/${id}/start`, {
    key,
    body: { model: 'service-light', background: { type: 'composition', composition } },
  });
}
