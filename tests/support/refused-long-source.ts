import path from 'node:path';
import { expect } from 'vitest';
import {
  api,
  remainingCredits,
  syntheticClip,
  uploadedJob,
  type Stack,
} from '../integration/helpers';

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
