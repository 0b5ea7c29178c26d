import { z } from 'zod';

/**
 * The one list of job kinds. Each kind is declared once: its payload schema, how many times a
 * thrown error is retried, and how long one attempt may run. The worker's handler map is typed
 * against this object (a missing handler fails the type check) and checked again at boot.
 */
export interface JobSpec<S extends z.ZodType = z.ZodType> {
  payload: S;
  /** Retries after the first attempt when the handler throws a transient error. */
  retries: number;
  /** One attempt is aborted after this long. */
  timeoutMs: number;
  /** Delay before retry n (1-based). */
  backoffMs: (retry: number) => number;
  /**
   * "light" kinds are short network calls: besides the general slots, each worker keeps one
   * slot for them alone, so a webhook never waits behind a long video.
   */
  lane: 'media' | 'light';
}

const exponential = (baseMs: number, capMs: number) => (retry: number) =>
  Math.min(capMs, baseMs * 2 ** (retry - 1));

export const catalogue = {
  'process-video': {
    payload: z.object({ jobId: z.uuid() }),
    retries: 2,
    // Long enough for the longest accepted video on a CPU; a lost worker is caught by its lease.
    timeoutMs: 3 * 60 * 60 * 1000,
    backoffMs: exponential(15_000, 5 * 60_000),
    lane: 'media',
  },
  'deliver-webhook': {
    // Receiver failures are recorded as new delivery rows (see lib/webhooks/deliver.ts); these
    // queue retries only cover our own failures (database busy, crash mid-attempt).
    payload: z.object({ deliveryId: z.uuid() }),
    retries: 3,
    timeoutMs: 30_000,
    backoffMs: exponential(2_000, 30_000),
    lane: 'light',
  },
} as const satisfies Record<string, JobSpec>;

export type JobKind = keyof typeof catalogue;
export type PayloadOf<K extends JobKind> = z.infer<(typeof catalogue)[K]['payload']>;

export const JOB_KINDS = Object.keys(catalogue) as JobKind[];
export const LIGHT_KINDS = JOB_KINDS.filter((k) => catalogue[k].lane === 'light');

export function isJobKind(name: string): name is JobKind {
  return Object.hasOwn(catalogue, name);
}
