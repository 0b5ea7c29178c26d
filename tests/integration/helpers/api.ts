import { expect } from 'vitest';
import type { Stack } from './stack';
import { waitFor } from './wait';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One call to the API as an SDK makes it: JSON in, JSON out, the key in X-Api-Key. */
export async function api<T = Record<string, unknown>>(
  stack: Stack,
  method: string,
  urlPath: string,
  opts: {
    key?: string | null;
    body?: unknown;
    headers?: Record<string, string>;
    /** Which web process (0-based). */ web?: number;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...opts.headers };
  if (opts.key) headers['X-Api-Key'] = opts.key;
  const res = await fetch(`${stack.baseUrls[opts.web ?? 0]}${urlPath}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export type JobStatus = Record<string, unknown> & { status: string; message: string | null };

/** Polls the status endpoint every `intervalMs` (clients use 2 s) until a terminal status. */
export async function waitForJob(
  stack: Stack,
  key: string,
  jobId: string,
  { timeoutMs = 240_000, intervalMs = 2_000 } = {},
): Promise<JobStatus> {
  return waitFor(
    async () => {
      const r = await api<JobStatus>(stack, 'GET', `/v1/jobs/${jobId}/status`, { key });
      if (r.status !== 200) throw new Error(`status endpoint answered ${r.status}: ${r.text}`);
      return ['completed', 'failed'].includes(r.body.status) ? r.body : undefined;
    },
    { timeoutMs, intervalMs, what: `job ${jobId} to finish` },
  );
}

/**
 * Polls until the started job finishes; throws with the failure and the stack's logs unless it
 * completed.
 */
export async function waitForCompletion(
  stack: Stack,
  key: string,
  jobId: string,
  wait: Parameters<typeof waitForJob>[3] = {},
): Promise<JobStatus> {
  const done = await waitForJob(stack, key, jobId, wait);
  if (done.status !== 'completed')
    throw new Error(`job ${jobId} ${done.status}: ${done.message}\n${stack.logs()}`);
  return done;
}

/**
 * POST /v1/jobs/{id}/start with `body`, then polls until the job finishes; throws with the
 * answer, or with the failure and the stack's logs, unless it starts and completes.
 */
export async function runJobToCompletion(
  stack: Stack,
  key: string,
  jobId: string,
  body: Record<string, unknown>,
  wait: Parameters<typeof waitForJob>[3] = {},
): Promise<JobStatus> {
  const start = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, { key, body });
  if (start.status !== 200) throw new Error(`start answered ${start.status}: ${start.text}`);
  return waitForCompletion(stack, key, jobId, wait);
}

/** The account's remaining credits, as GET /v1/credits reports them. */
export async function remainingCredits(stack: Stack, key: string): Promise<number> {
  return (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })).body
    .remaining_credits;
}

/**
 * Polls GET `urlPath` (an export, a batch or a refinement) as its owner until it is no longer
 * queued or processing, and returns that record; every poll must answer 200.
 */
export function settled<T extends { status: string }>(
  stack: Stack,
  key: string,
  urlPath: string,
  { timeoutMs, intervalMs = 1_000 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  return waitFor(
    async () => {
      const r = await api<T>(stack, 'GET', urlPath, { key });
      expect(r.status, r.text).toBe(200);
      return ['queued', 'processing'].includes(r.body.status) ? undefined : r.body;
    },
    { timeoutMs, intervalMs, what: `${urlPath} to settle` },
  );
}
