import path from 'node:path';
import { z } from 'zod';

/**
 * The one reader of process.env. Every default makes the embedded mode (SQLite, local disk,
 * one worker) work with no configuration at all; .env.example mirrors this schema.
 */
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

/** INFERENCE_DEVICE's values (lib/inference/device.ts decides what `auto` becomes). */
export const DEVICE_SETTINGS = ['auto', 'cpu', 'webgpu', 'cuda'] as const;

/** A DATABASE_URL that names PostgreSQL (anything else is an SQLite file). */
export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Public origin used to build absolute signed URLs, e.g. https://keyout.example.com. Unset:
   * the origin the server listens on, http://localhost:$PORT.
   */
  PUBLIC_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  DATA_DIR: z.string().default('./data'),
  /** `postgres://…` selects PostgreSQL; `file:…` or nothing, SQLite (DATA_DIR/keyout.db). */
  DATABASE_URL: z.string().optional(),
  /** Connections each process may open to PostgreSQL (its pg pool's maximum). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  MODELS_DIR: z.string().default('./models-cache'),
  /** Extra read-only folders searched for model files before any download (colon-separated). */
  MODELS_SEARCH_PATH: z.string().default('../shared/models'),
  /** Secret for signed URLs and Auth.js. Generated into DATA_DIR/secret when unset. */
  KEYOUT_SECRET: z.string().min(32).optional(),
  KEYOUT_ALLOW_PRIVATE_URLS: flag,
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  /**
   * Queue: "db" (rows in the application database, the embedded default) or "bullmq" (Redis at
   * REDIS_URL).
   */
  QUEUE_PROVIDER: z.enum(['db', 'bullmq']).default('db'),
  REDIS_URL: z.string().url().optional(),
  /** Files: "local" (DATA_DIR/files) or "s3" (any S3-compatible store, the S3_* settings). */
  STORAGE_PROVIDER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).optional(),
  /** Prepended to every key, e.g. "keyout/" to share a bucket. */
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, 'folder names ending in "/"')
    .default(''),
  /** The store's endpoint (AWS when unset). */
  S3_ENDPOINT: z.string().url().optional(),
  /**
   * The endpoint clients reach, when it differs from S3_ENDPOINT (presigned URLs are signed for
   * it).
   */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** Path-style URLs (endpoint/bucket/key), which most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: flag,
  /** Credentials; when unset the AWS SDK's default chain (environment, instance role) is used. */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Scheduling niceness of worker processes, their inference threads and the ffmpeg they run
   * (0-19; 0 keeps the default). The web process keeps priority 0, so on a machine the worker
   * keeps busy, status and upload requests still get a core when they need one.
   */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * The queue lanes this worker takes: `gpu` (segmentation, refinement, one-pass batches), `cpu`
   * (renders, exports, webhooks), or `auto`: `cpu`, plus `gpu` when this worker's models run on
   * a GPU (a fleet of GPU and CPU machines; lib/queue/lanes.ts). Listed lanes are taken on any
   * device: the default lets a CPU-only install's one worker run everything.
   */
  WORKER_LANES: z
    .string()
    .default('gpu,cpu')
    .transform((s) =>
      s
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .pipe(
      z.union([
        z.tuple([z.literal('auto')]).transform(() => 'auto' as const),
        z.array(z.enum(['gpu', 'cpu'])).min(1),
      ]),
    ),
  /** Threads onnxruntime may use per inference session (0 = one per available CPU). */
  ORT_THREADS: z.coerce.number().int().min(0).default(0),
  /**
   * Where workers run the models (lib/inference/device.ts): `auto` (CUDA when its provider is
   * installed, else WebGPU when a GPU answers, else the CPU), `cpu`, `webgpu` or `cuda` (the
   * worker refuses to start when that GPU does not answer). docs/operations.md, "GPU workers".
   */
  INFERENCE_DEVICE: z.enum(DEVICE_SETTINGS).optional(),
  /**
   * The old name of INFERENCE_DEVICE (cpu or cuda), still read where the new one is unset, so an
   * upgrade's .env keeps working.
   */
  ORT_EXECUTION_PROVIDER: z.enum(['cpu', 'cuda']).optional(),
  /** Which GPU the CUDA provider uses. */
  ORT_CUDA_DEVICE: z.coerce.number().int().min(0).default(0),
  /** Keyframes per model run (ISNet tiers): 4 on a GPU, 1 on the CPU unless set. */
  ORT_BATCH: z.coerce.number().int().min(1).max(32).optional(),
  /**
   * Whether a job's primary output renders while the video is segmented
   * (lib/segment/render-while-segmenting.ts). `auto`: where the worker has more than 2 CPUs.
   * On 2 it saved nothing on a quiet host and held 0.5-0.9 GiB more at 1080p (docs/engine.md).
   */
  RENDER_WHILE_SEGMENTING: z.enum(['auto', 'on', 'off']).default('auto'),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  MAX_VIDEO_SECONDS: z.coerce.number().positive().default(600),
  MAX_FRAME_PIXELS: z.coerce
    .number()
    .int()
    .positive()
    .default(4096 * 2304),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(100),
  STARTS_PER_MINUTE: z.coerce.number().int().positive().default(3),
  /** Requests with a missing or invalid API key one client address may make per minute. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /**
   * Reverse proxies in front of the web server that append the client's address to
   * X-Forwarded-For (0: clients connect directly, and the connection's address is the client's).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The test-mode checkout (without Stripe: purchases are recorded at once, nothing is paid, and
   * they unlock API keys). "auto": for everyone when PUBLIC_URL is a loopback origin (the
   * embedded set-up on one machine), else for the administrator only. "on", "admin", "off".
   */
  TEST_CHECKOUT: z.enum(['auto', 'on', 'admin', 'off']).default('auto'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PRICE_ID: z.string().optional(),
  /**
   * SMTP server for password-reset e-mails, e.g. smtp://user:pass@mail.example.com:587. Without it,
   * no e-mail is sent.
   */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Keyout <no-reply@localhost>'),
});

/** Settings that only make sense together. */
const checked = schema.superRefine((e, ctx) => {
  const need = (when: string, keys: (keyof typeof e)[]) => {
    for (const k of keys)
      if (!e[k]) ctx.addIssue({ code: 'custom', path: [k], message: `required with ${when}` });
  };
  if (e.QUEUE_PROVIDER === 'bullmq') need('QUEUE_PROVIDER=bullmq', ['REDIS_URL']);
  if (e.STORAGE_PROVIDER === 's3') need('STORAGE_PROVIDER=s3', ['S3_BUCKET']);
  // Processes on several machines share a PostgreSQL database: a secret generated into one
  // machine's DATA_DIR would sign sessions and URLs the others reject.
  if (isPostgresUrl(e.DATABASE_URL ?? ''))
    need('a PostgreSQL DATABASE_URL (the same value in every process)', ['KEYOUT_SECRET']);
});

export type Env = Omit<
  z.infer<typeof schema>,
  'PUBLIC_URL' | 'INFERENCE_DEVICE' | 'ORT_EXECUTION_PROVIDER'
> & {
  INFERENCE_DEVICE: (typeof DEVICE_SETTINGS)[number];
  PUBLIC_URL: string;
  /** PUBLIC_URL was set, not derived from PORT. */
  publicUrlSet: boolean;
  dataDir: string;
  databaseUrl: string;
  modelsDir: string;
};

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = checked.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  cached = {
    ...parsed.data,
    INFERENCE_DEVICE: parsed.data.INFERENCE_DEVICE ?? parsed.data.ORT_EXECUTION_PROVIDER ?? 'auto',
    PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`,
    publicUrlSet: Boolean(parsed.data.PUBLIC_URL),
    dataDir,
    databaseUrl: parsed.data.DATABASE_URL ?? `file:${path.join(dataDir, 'keyout.db')}`,
    modelsDir: path.resolve(parsed.data.MODELS_DIR),
  };
  return cached;
}

/** Tests change process.env between cases; this makes the next env() read it again. */
export function resetEnvForTests(): void {
  cached = undefined;
}
