import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, syntheticClip, waitFor } from './helpers';

const run = promisify(execFile);

/**
 * `npm start` itself (scripts/start.mjs), as a self-hoster runs it on a server
 * (NODE_ENV=production, any PORT, no PUBLIC_URL): web and worker come up, a job completes through
 * the URLs it hands out, the worker runs with one malloc arena, a killed worker is started again,
 * and SIGTERM stops every process it started. (Under `npm test` the build is fresh; run alone on
 * a stale build, start.mjs rebuilds first, as it would for a user.)
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-start-it-'));
/** Every process seen under start.mjs, so a failed run still leaves nothing behind. */
const seen = new Set<number>();
afterAll(() => {
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);
const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const environ = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** pid → parent pid for every process now running. */
function parents(): Map<number, number> {
  const parent = new Map<number, number>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      // Field 4 of stat, after the parenthesised command name (which may hold spaces).
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended while listing
    }
  }
  return parent;
}

/** All processes below `root` (children, grandchildren, …), detached process groups included. */
function descendants(root: number, parent = parents()): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, pp] of parent) {
      if (pp !== p) continue;
      out.push(pid);
      walk(pid);
    }
  };
  walk(root);
  for (const pid of out) seen.add(pid);
  return out;
}

/**
 * The worker launcher (bin/worker.mjs, a child of start.mjs) and the worker it started (its child).
 */
function workerPair(start: number): { launcher: number; worker: number } | undefined {
  const parent = parents();
  const isWorker = (pid: number) => {
    try {
      return cmdline(pid).some((a) => a.endsWith('bin/worker.mjs'));
    } catch {
      return false; // ended while looking
    }
  };
  const all = descendants(start, parent).filter(isWorker);
  const launcher = all.find((pid) => parent.get(pid) === start);
  const worker = all.find((pid) => launcher !== undefined && parent.get(pid) === launcher);
  return launcher !== undefined && worker !== undefined ? { launcher, worker } : undefined;
}

describe('npm start', () => {
  it(
    'runs web and worker with NODE_ENV=production and no ' +
      'PUBLIC_URL, completes a job through its URLs, restarts a ' +
      'killed worker, and SIGTERM stops every process it started',
    async () => {
      const port = await freePort();
      // Unset: the launcher must supply the arena setting, and PUBLIC_URL must default to this
      // port.
      const inherited = Object.fromEntries(
        Object.entries(process.env).filter(
          ([k]) => !['MALLOC_ARENA_MAX', 'NODE_ENV', 'PUBLIC_URL'].includes(k),
        ),
      );
      const env = {
        ...inherited,
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: dataDir,
        KEYOUT_SECRET: randomBytes(32).toString('hex'),
        NEXT_TELEMETRY_DISABLED: '1',
      } as unknown as NodeJS.ProcessEnv;
      const start = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      start.stdout.on('data', (d: Buffer) => (log += d.toString()));
      start.stderr.on('data', (d: Buffer) => (log += d.toString()));
      const ended = new Promise<number | null>((resolve) =>
        start.on('exit', (code) => resolve(code)),
      );
      const readyCount = () => log.match(/\[worker\] \S+ ready/g)?.length ?? 0;

      await waitFor(
        async () => {
          if (start.exitCode !== null)
            throw new Error(`npm start exited (${start.exitCode}):\n${log}`);
          const res = await fetch(`http://127.0.0.1:${port}/v1/credits`).catch(() => null);
          return res && readyCount() >= 1 ? res : undefined;
        },
        {
          timeoutMs: 280_000,
          intervalMs: 500,
          what: 'npm start to serve and its worker to be ready',
        },
      ).then((res) => expect(res.status).toBe(401));

      // A job through the URLs the server hands out (upload_url, processed_video_url).
      expect(log).toContain(
        `[web] Upload and result URLs point to http://localhost:${port} (PUBLIC_URL is not set`,
      );
      const cli = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          'bin/keyout.ts',
          'keys',
          'create',
          '--email',
          'newcomer@example.com',
          '--credits',
          '10',
        ],
        { cwd: ROOT, env },
      );
      const key = cli.stdout.trim().split('\n').at(-1)!.trim();
      const call = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${p}`, {
          method,
          headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await res.json()) as Record<string, unknown>;
      };
      const receipt = await call('POST', '/v1/jobs', {
        filename: 'clip.mp4',
        content_type: 'video/mp4',
      });
      expect(String(receipt.upload_url)).toMatch(new RegExp(`^http://localhost:${port}/files/`));
      const clip = await syntheticClip(path.join(dataDir, 'clip.mp4'), { seconds: 1 });
      const put = await fetch(String(receipt.upload_url), {
        method: 'PUT',
        headers: { 'Content-Type': 'video/mp4' },
        body: fs.readFileSync(clip),
      });
      expect(put.status).toBe(200);
      expect(
        (await call('POST', `/v1/jobs/${String(receipt.id)}/start`, { model: 'service-human' }))
          .status,
      ).toBe('processing');
      const done = await waitFor(
        async () => {
          const s = await call('GET', `/v1/jobs/${String(receipt.id)}/status`);
          return ['completed', 'failed'].includes(String(s.status)) ? s : undefined;
        },
        { timeoutMs: 240_000, intervalMs: 1000, what: 'the job to finish' },
      );
      expect(done.status, `${String(done.message)}\n${log}`).toBe('completed');
      const output = await fetch(String(done.processed_video_url));
      expect(output.status).toBe(200);
      expect((await output.arrayBuffer()).byteLength).toBeGreaterThan(1000);

      const first = workerPair(start.pid!);
      expect(first, log).toBeDefined();
      expect(environ(first!.worker)).toContain('MALLOC_ARENA_MAX=1');

      // A worker killed with its whole process group (OOM killer, `kill -9`) is started again.
      process.kill(-first!.launcher, 'SIGKILL');
      await waitFor(() => Promise.resolve(readyCount() >= 2 || undefined), {
        timeoutMs: 120_000,
        intervalMs: 200,
        what: 'a new worker',
      });
      expect(log).toMatch(/Worker exited \(SIGKILL\); restarting in \d+ s\./);
      const second = workerPair(start.pid!);
      expect(second?.worker).not.toBe(first!.worker);

      const processes = descendants(start.pid!);
      expect(processes).toContain(second!.worker);
      start.kill('SIGTERM');
      expect(await ended).toBe(0);
      await waitFor(() => Promise.resolve(processes.every((p) => !alive(p)) || undefined), {
        timeoutMs: 20_000,
        what: 'every process to end',
      });
      expect(log).toMatch(/\[worker\] SIGTERM: draining/);
      // The port is free again.
      expect(
        await fetch(`http://127.0.0.1:${port}/`).then(
          () => 'answered',
          () => 'refused',
        ),
      ).toBe('refused');
    },
  );
});
