import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIsCurrent } from '../../../scripts/bootstrap.mjs';
import { freePorts } from '../../../scripts/lib-stack/ports';

export { freePort } from '../../../scripts/lib-stack/ports';

/**
 * A real Keyout for integration tests: Next servers and, when asked, real worker processes,
 * sharing a fresh DATA_DIR.
 *
 * Two kinds of stack, one API. `embedded` (the default): SQLite, local files, the queue in the
 * database. `scale` (KEYOUT_TEST_STACK=scale, or `scale: true`): a fresh PostgreSQL database,
 * BullMQ on Redis and a fresh S3 bucket, from KEYOUT_TEST_POSTGRES_URL, KEYOUT_TEST_REDIS_URL and
 * KEYOUT_TEST_S3 (`npm run test:scale` starts those once), or throwaway servers of its own.
 *
 * Server mode: `next start` when .next holds a build of the current sources (npm test builds
 * first), otherwise `next dev` with a private build folder (next-server.mjs). Force one with
 * KEYOUT_TEST_SERVER=dev|start. KEYOUT_TEST_DIST_DIR=<dir> serves a private production build
 * made with `node tests/integration/helpers/next-server.mjs build` instead of .next.
 * Ports come from KEYOUT_TEST_PORTS (default 3100-3199).
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

export type StackKind = 'embedded' | 'scale';

export interface Stack {
  kind: StackKind;
  /** The first web process. */
  baseUrl: string;
  /** Every web process, the first one first. */
  baseUrls: string[];
  port: number;
  dataDir: string;
  /** The environment every process runs with (for the CLI and direct db() access). */
  env: Record<string, string>;
  /** `in-process`: the in-process tier's stack (tests/in-process/helpers/stack.ts). */
  mode: 'dev' | 'start' | 'in-process';
  /** The last lines the servers and workers printed, for failure messages. */
  logs(): string;
  /** Process-group ids of the first web server and the first worker (for RSS sampling). */
  pids(): { web: number | null; worker: number | null };
  /** Process-group ids of the running workers. */
  workerPids(): number[];
  /**
   * Starts a worker (up to `workers`, 1 by default) if fewer are running (e.g. after stopWorker).
   */
  startWorker(): void;
  /**
   * Kills the web server with SIGKILL (its whole process group) and starts it again on the same
   * port.
   */
  restartWeb(): Promise<void>;
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Start one worker. */
  worker?: boolean;
  /** Start this many workers. */
  workers?: number;
  /** This many web processes on consecutive ports (1 by default). */
  webs?: number;
  /** The scale-out stack even when KEYOUT_TEST_STACK is not `scale`. */
  scale?: boolean;
  env?: Record<string, string>;
}

export const stackKind = (opts: Pick<StackOptions, 'scale'> = {}): StackKind =>
  opts.scale || process.env.KEYOUT_TEST_STACK === 'scale' ? 'scale' : 'embedded';

function serverMode(): 'dev' | 'start' {
  if (process.env.KEYOUT_TEST_DIST_DIR) return 'start';
  const forced = process.env.KEYOUT_TEST_SERVER;
  if (forced === 'dev' || forced === 'start') return forced;
  return buildIsCurrent(ROOT) ? 'start' : 'dev';
}

class Tail {
  private text = '';
  /**
   * Whether each process's output ends mid-line: a chunk may split a line, which keeps one prefix.
   */
  private readonly midLine = new Map<string, boolean>();
  constructor(private readonly file: string) {}
  add(prefix: string, chunk: Buffer) {
    const s = chunk.toString();
    fs.appendFileSync(this.file, s);
    const prefixed =
      (this.midLine.get(prefix) ? '' : prefix) + s.replace(/\n(?=.)/gs, `\n${prefix}`);
    this.midLine.set(prefix, !s.endsWith('\n'));
    this.text = (this.text + prefixed).slice(-20_000);
  }
  toString() {
    return this.text;
  }
}

function launch(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  tail: Tail,
  prefix: string,
): ChildProcess {
  // Own process group, so stop() ends the launcher and everything it started.
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => tail.add(prefix, d));
  child.stderr?.on('data', (d: Buffer) => tail.add(prefix, d));
  return child;
}

async function killGroup(child: ChildProcess | null): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 8_000);
  await exited;
  clearTimeout(timer);
}

async function waitUntilServing(
  baseUrl: string,
  child: ChildProcess,
  tail: Tail,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The server exited (${child.exitCode}):\n${tail.toString()}`);
    try {
      // Any answer means it is up; in dev mode this also compiles the API routes once.
      await fetch(`${baseUrl}/v1/openapi`, { signal: AbortSignal.timeout(120_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`The server did not start within ${timeoutMs} ms:\n${tail.toString()}`);
}

/** Environment and clean-up for a scale-out stack: its own database, Redis database and bucket. */
export async function scaleServices(): Promise<{
  env: Record<string, string>;
  stop(): Promise<void>;
}> {
  const [{ testPostgres }, { testRedis }, { testS3 }] = await Promise.all([
    import('../../../scripts/lib-stack/test-postgres'),
    import('../../../scripts/lib-stack/test-redis'),
    import('../../../scripts/lib-stack/test-swift'),
  ]);
  const [pg, redis, s3] = await Promise.all([testPostgres(), testRedis(), testS3()]);
  // One of Redis's 16 numbered databases, emptied: nothing queued by an earlier stack runs here.
  const redisUrl = `${redis.url}/${1 + Math.floor(Math.random() * 15)}`;
  const { Redis } = await import('ioredis');
  const flush = async () => {
    const r = new Redis(redisUrl);
    await r.flushdb();
    r.disconnect();
  };
  await flush();
  const env = {
    DATABASE_URL: await pg.freshDatabase(),
    QUEUE_PROVIDER: 'bullmq',
    REDIS_URL: redisUrl,
    STORAGE_PROVIDER: 's3',
    S3_BUCKET: await s3.freshBucket(),
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_FORCE_PATH_STYLE: '1',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  return {
    env,
    stop: async () => {
      await flush().catch(() => undefined);
      await Promise.all([pg.stop(), redis.stop(), s3.stop()]);
    },
  };
}

/** The environment of a stack's processes: its DATA_DIR and port, a fresh secret, then `extra`s. */
export function stackEnv(
  dataDir: string,
  port: number,
  ...extra: (Record<string, string> | undefined)[]
): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    KEYOUT_SECRET: randomBytes(32).toString('hex'),
    KEYOUT_ALLOW_PRIVATE_URLS: '1',
    NEXT_TELEMETRY_DISABLED: '1',
    ...(Object.assign({}, ...extra) as Record<string, string>),
  };
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const kind = stackKind(opts);
  const webs = opts.webs ?? 1;
  const port = await freePorts(webs);
  const ports = Array.from({ length: webs }, (_, i) => port + i);
  const baseUrls = ports.map((p) => `http://127.0.0.1:${p}`);
  const baseUrl = baseUrls[0]!;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-it-'));
  const services = kind === 'scale' ? await scaleServices() : null;
  const env = stackEnv(dataDir, port, services?.env, opts.env);
  const tail = new Tail(path.join(dataDir, 'stack.log'));
  const mode = serverMode();
  const nextBin = path.join(ROOT, 'node_modules/next/dist/bin/next');
  const launcher = path.join(import.meta.dirname, 'next-server.mjs');
  const launchWeb = (i: number) => {
    const p = ports[i]!;
    const prefix = webs > 1 ? `[web ${i + 1}] ` : '[web] ';
    // Each process names itself to PostgreSQL (pg_stat_activity), so connections can be told apart.
    const own = { ...env, PORT: String(p), PGAPPNAME: `keyout-web-${i + 1}` };
    return mode === 'dev'
      ? launch(process.execPath, [launcher, 'dev', String(p)], own, tail, prefix)
      : process.env.KEYOUT_TEST_DIST_DIR
        ? launch(process.execPath, [launcher, 'start', String(p)], own, tail, prefix)
        : launch(
            process.execPath,
            [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(p)],
            own,
            tail,
            prefix,
          );
  };
  const servers = ports.map((_, i) => launchWeb(i));
  const wanted = opts.workers ?? (opts.worker ? 1 : 0);
  const workers: (ChildProcess | null)[] = [];
  const running = (w: ChildProcess | null) =>
    w !== null && w.exitCode === null && w.signalCode === null;

  const startWorker = () => {
    for (let i = 0; i < Math.max(1, wanted); i++) {
      if (running(workers[i] ?? null)) continue;
      // The launcher self-hosters run (`npm run worker`): it starts the worker as its child.
      const prefix = wanted > 1 ? `[worker ${i + 1}] ` : '[worker] ';
      workers[i] = launch(
        process.execPath,
        [path.join(ROOT, 'bin/worker.mjs')],
        { ...env, PGAPPNAME: `keyout-worker-${i + 1}` },
        tail,
        prefix,
      );
    }
  };
  const stopWorker = async () => {
    await Promise.all(workers.map((w) => killGroup(w)));
    workers.length = 0;
  };

  const stack: Stack = {
    kind,
    baseUrl,
    baseUrls,
    port,
    dataDir,
    env,
    mode,
    logs: () => tail.toString(),
    pids: () => ({ web: servers[0]!.pid ?? null, worker: workers.find(running)?.pid ?? null }),
    workerPids: () => workers.filter(running).map((w) => w!.pid!),
    startWorker,
    stopWorker,
    restartWeb: async () => {
      const server = servers[0]!;
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
        process.kill(-server.pid!, 'SIGKILL');
        await exited;
      }
      servers[0] = launchWeb(0);
      await waitUntilServing(baseUrl, servers[0], tail, 180_000);
    },
    stop: async () => {
      await Promise.all([...servers.map((s) => killGroup(s)), stopWorker()]);
      await services?.stop();
      if (!process.env.KEYOUT_TEST_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
      if (mode === 'dev') {
        // The dev server empties its build folder at start anyway: nothing worth keeping.
        for (const p of ports) {
          fs.rmSync(path.join(ROOT, '.next', `test-${p}`), { recursive: true, force: true });
          fs.rmSync(path.join(ROOT, '.next', `tsconfig.test-${p}.json`), { force: true });
        }
      }
    },
  };
  try {
    await Promise.all(servers.map((s, i) => waitUntilServing(baseUrls[i]!, s, tail, 180_000)));
    if (wanted) startWorker();
  } catch (e) {
    await stack.stop();
    throw e;
  }
  return stack;
}
