import { z } from 'zod';

/**
 * The one list of job kinds, one per unit of work. Each kind is declared once: its payload
 * schema, how many times a thrown error is retried, how long one attempt may run, and its lane.
 * The worker's handler map is typed against this object (a missing handler fails the type
 * check) and checked again at boot.
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
   * Which workers take it (WORKER_LANES): `gpu` for model inference (segmentation, mask
   * refinement) and one-pass batches, `cpu`
   * for encodes and network calls. A worker on both lanes (the default) runs everything.
   */
  lane: 'gpu' | 'cpu';
  /**
   * Short network calls: besides the general slots, each worker keeps one slot for these
   * alone, so a webhook never waits behind a long video.
   */
  reservedSlot?: true;
}

const exponential = (baseMs: number, capMs: number) => (retry: number) =>
  Math.min(capMs, baseMs * 2 ** (retry - 1));

/** Long enough for the longest accepted video on a CPU; a lost worker is caught by its lease. */
const LONG_MEDIA_MS = 3 * 60 * 60 * 1000;

/**
 * Segmenting, rendering and refining: a payload of the one row it works on (by its id field),
 * two retries, minutes apart.
 */
const mediaWork = <F extends string>(idField: F, lane: Lane) => ({
  payload: z.object({ [idField]: z.uuid() } as Record<F, z.ZodUUID>),
  retries: 2,
  timeoutMs: LONG_MEDIA_MS,
  backoffMs: exponential(15_000, 5 * 60_000),
  lane,
});

export const catalogue = {
  'segment-video': mediaWork('jobId', 'gpu'),
  'render-output': mediaWork('outputId', 'cpu'),
  'render-batch': mediaWork('batchId', 'gpu'),
  'refine-mask': mediaWork('refinementId', 'gpu'),
  'deliver-webhook': {
    // Receiver failures are recorded as new delivery rows (see lib/services/webhooks/deliver.ts);
    // these queue retries only cover our own failures (database busy, crash mid-attempt).
    payload: z.object({ deliveryId: z.uuid() }),
    retries: 3,
    timeoutMs: 30_000,
    backoffMs: exponential(2_000, 30_000),
    lane: 'cpu',
    reservedSlot: true,
  },
} as const satisfies Record<string, JobSpec>;

export type JobKind = keyof typeof catalogue;
export type PayloadOf<K extends JobKind> = z.infer<(typeof catalogue)[K]['payload']>;
export type Lane = JobSpec['lane'];

export const JOB_KINDS = Object.keys(catalogue) as JobKind[];

export function isJobKind(name: string): name is JobKind {
  return Object.hasOwn(catalogue, name);
}

/** The kinds a worker on these lanes takes, and those of them its reserved slot takes. */
export function kindsFor(lanes: readonly Lane[]): { all: JobKind[]; reserved: JobKind[] } {
  const all = JOB_KINDS.filter((k) => lanes.includes(catalogue[k].lane));
  return { all, reserved: all.filter((k) => 'reservedSlot' in catalogue[k]) };
}
