import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real Keyout for integration tests: a Next server on a free port and, when asked, a real
 * worker process, sharing a fresh DATA_DIR (SQLite, files, secret).
 *
 * Server mode: `next start` when .next/BUILD_ID is newer than the sources (npm test builds
 * first), otherwise `next dev` with a private build folder (next-server.mjs). Force one with
 * KEYOUT_TEST_SERVER=dev|start. KEYOUT_TEST_DIST_DIR=<dir> serves a private production build
 * made with `node tests/integration/helpers/next-server.mjs build` instead of .next.
 * Ports come from KEYOUT_TEST_PORTS (default 3100-3199).
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface Stack {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** The environment both processes run with (for the CLI and direct db() access). */
  env: Record<string, string>;
  mode: 'dev' | 'start';
  /** The last lines the server and worker printed, for failure messages. */
  logs(): string;
  /** Process-group ids of the web server and the worker (for RSS sampling). */
  pids(): { web: number | null; worker: number | null };
  /** Starts a worker if none is running (e.g. after stopWorker). */
  startWorker(): void;
  /** Kills the web server with SIGKILL (its whole process group) and starts it again on the same port. */
  restartWeb(): Promise<void>;
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  worker?: boolean;
  env?: Record<string, string>;
}

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  if (['node_modules', '.next', 'generated'].includes(path.basename(p))) return 0;
  return Math.max(0, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

function serverMode(): 'dev' | 'start' {
  if (process.env.KEYOUT_TEST_DIST_DIR) return 'start';
  const forced = process.env.KEYOUT_TEST_SERVER;
  if (forced === 'dev' || forced === 'start') return forced;
  const id = path.join(ROOT, '.next', 'BUILD_ID');
  if (!fs.existsSync(id)) return 'dev';
  const sources = ['app', 'components', 'lib', 'engine', 'workers', 'public', 'next.config.ts', 'package-lock.json'];
  const newest = Math.max(...sources.map((s) => newestMtime(path.join(ROOT, s))));
  return fs.statSync(id).mtimeMs >= newest ? 'start' : 'dev';
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const [lo, hi] = (process.env.KEYOUT_TEST_PORTS ?? '3100-3199').split('-').map(Number) as [number, number];
  const span = hi - lo + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = lo + ((offset + i) % span);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port in ${lo}-${hi}`);
}

class Tail {
  private text = '';
  constructor(private readonly file: string) {}
  add(prefix: string, chunk: Buffer) {
    const s = chunk.toString();
    fs.appendFileSync(this.file, s);
    this.text = (this.text + s.replace(/^/gm, prefix)).slice(-20_000);
  }
  toString() {
    return this.text;
  }
}

function launch(cmd: string, args: string[], env: Record<string, string>, tail: Tail, prefix: string): ChildProcess {
  // Own process group, so stop() ends the launcher and everything it started.
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function waitUntilServing(baseUrl: string, child: ChildProcess, tail: Tail, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${tail.toString()}`);
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

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-it-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    PORT: String(port),
    KEYOUT_SECRET: randomBytes(32).toString('hex'),
    KEYOUT_ALLOW_PRIVATE_URLS: '1',
    NEXT_TELEMETRY_DISABLED: '1',
    ...opts.env,
  };
  const tail = new Tail(path.join(dataDir, 'stack.log'));
  const mode = serverMode();
  const nextBin = path.join(ROOT, 'node_modules/next/dist/bin/next');
  const launcher = path.join(import.meta.dirname, 'next-server.mjs');
  const launchWeb = () =>
    mode === 'dev'
      ? launch(process.execPath, [launcher, 'dev', String(port)], env, tail, '[web] ')
      : process.env.KEYOUT_TEST_DIST_DIR
        ? launch(process.execPath, [launcher, 'start', String(port)], env, tail, '[web] ')
        : launch(process.execPath, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)], env, tail, '[web] ');
  let server = launchWeb();
  let worker: ChildProcess | null = null;

  const startWorker = () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) return;
    // The launcher self-hosters run (`npm run worker`): it starts the worker as its child.
    worker = launch(process.execPath, [path.join(ROOT, 'bin/worker.mjs')], env, tail, '[worker] ');
  };
  const stopWorker = async () => {
    await killGroup(worker);
    worker = null;
  };

  const stack: Stack = {
    baseUrl,
    port,
    dataDir,
    env,
    mode,
    logs: () => tail.toString(),
    pids: () => ({ web: server.pid ?? null, worker: worker?.pid ?? null }),
    startWorker,
    stopWorker,
    restartWeb: async () => {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
        process.kill(-server.pid!, 'SIGKILL');
        await exited;
      }
      server = launchWeb();
      await waitUntilServing(baseUrl, server, tail, 180_000);
    },
    stop: async () => {
      await Promise.all([killGroup(server), stopWorker()]);
      if (!process.env.KEYOUT_TEST_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
      if (mode === 'dev') {
        // The dev server empties its build folder at start anyway: nothing worth keeping.
        fs.rmSync(path.join(ROOT, '.next', `test-${port}`), { recursive: true, force: true });
        fs.rmSync(path.join(ROOT, '.next', `tsconfig.test-${port}.json`), { force: true });
      }
    },
  };
  try {
    await waitUntilServing(baseUrl, server, tail, 180_000);
    if (opts.worker) startWorker();
  } catch (e) {
    await stack.stop();
    throw e;
  }
  return stack;
}
