import fs from 'node:fs';
import path from 'node:path';
import { api } from './api';
import type { Stack } from './stack';

export interface Receipt {
  id: string;
  status: string;
  upload_url: string;
  expires_at: string;
  instructions: { method: string; headers: Record<string, string>; note: string };
  [k: string]: unknown;
}

/** POST /v1/jobs with filename + content_type, as the SDKs do. */
export async function createJob(stack: Stack, key: string, filename = 'clip.mp4', contentType = 'video/mp4'): Promise<Receipt> {
  const r = await api<Receipt>(stack, 'POST', '/v1/jobs', { key, body: { filename, content_type: contentType } });
  if (r.status !== 200) throw new Error(`create job answered ${r.status}: ${r.text}`);
  return r.body;
}

/** One PUT of the whole file to the signed upload URL, no API key, with the given Content-Type. */
export async function putUpload(receipt: Receipt, file: string): Promise<Response> {
  return fetch(receipt.upload_url, {
    method: 'PUT',
    headers: { 'Content-Type': receipt.instructions.headers['Content-Type'] ?? 'video/mp4' },
    body: fs.readFileSync(file),
  });
}

/**
 * A job whose video is uploaded and probed, ready to start. A PUT straight into S3 is checked
 * when the job is next used: the status call a client makes next does it on either stack.
 */
export async function uploadedJob(stack: Stack, key: string, file: string): Promise<string> {
  const receipt = await createJob(stack, key, path.basename(file));
  const res = await putUpload(receipt, file);
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const status = await api<{ status: string; message: string | null }>(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key });
  if (status.body.status !== 'uploaded') throw new Error(`the uploaded job is ${status.body.status}: ${status.body.message ?? status.text}`);
  return receipt.id;
}
