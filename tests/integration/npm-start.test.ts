import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, waitFor } from './helpers';

/**
 * `npm start` itself (scripts/start.mjs), as a self-hoster runs it: web and worker come up, the
 * worker runs with one malloc arena, a killed worker is started again, and SIGTERM stops every
 * process it started. (Under `npm test` the build is fresh; run alone on a stale build, start.mjs
 * rebuilds first, as it would for a user.)
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

/** The worker launcher (bin/worker.mjs, a child of start.mjs) and the worker it started (its child). */
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
  it('runs web and worker, restarts a killed worker, and SIGTERM stops every process it started', async () => {
    const port = await freePort();
    // Unset: the launcher must supply the arena setting; next picks its own NODE_ENV.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'MALLOC_ARENA_MAX' && k !== 'NODE_ENV'));
    const env = {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      KEYOUT_SECRET: randomBytes(32).toString('hex'),
      NEXT_TELEMETRY_DISABLED: '1',
    } as unknown as NodeJS.ProcessEnv;
    const start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    start.stdout.on('data', (d: Buffer) => (log += d.toString()));
    start.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const ended = new Promise<number | null>((resolve) => start.on('exit', (code) => resolve(code)));
    const readyCount = () => log.match(/\[worker\] \S+ ready/g)?.length ?? 0;

    await waitFor(
      async () => {
        if (start.exitCode !== null) throw new Error(`npm start exited (${start.exitCode}):\n${log}`);
        const res = await fetch(`http://127.0.0.1:${port}/v1/credits`).catch(() => null);
        return res && readyCount() >= 1 ? res : undefined;
      },
      { timeoutMs: 280_000, intervalMs: 500, what: 'npm start to serve and its worker to be ready' },
    ).then((res) => expect(res.status).toBe(401));

    const first = workerPair(start.pid!);
    expect(first, log).toBeDefined();
    expect(environ(first!.worker)).toContain('MALLOC_ARENA_MAX=1');

    // A worker killed with its whole process group (OOM killer, `kill -9`) is started again.
    process.kill(-first!.launcher, 'SIGKILL');
    await waitFor(() => Promise.resolve(readyCount() >= 2 || undefined), { timeoutMs: 120_000, intervalMs: 200, what: 'a new worker' });
    expect(log).toMatch(/Worker exited \(SIGKILL\); restarting in \d+ s\./);
    const second = workerPair(start.pid!);
    expect(second?.worker).not.toBe(first!.worker);

    const processes = descendants(start.pid!);
    expect(processes).toContain(second!.worker);
    start.kill('SIGTERM');
    expect(await ended).toBe(0);
    await waitFor(() => Promise.resolve(processes.every((p) => !alive(p)) || undefined), { timeoutMs: 20_000, what: 'every process to end' });
    expect(log).toMatch(/\[worker\] SIGTERM: draining/);
    // The port is free again.
    expect(await fetch(`http://127.0.0.1:${port}/`).then(() => 'answered', () => 'refused')).toBe('refused');
  });
});
