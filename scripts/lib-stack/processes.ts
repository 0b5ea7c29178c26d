import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/**
 * Child processes of a local stack (database, object store, web, workers): each in a process
 * group of its own with its output appended to a log file, so stopping one ends everything it
 * started and a failure can show what it printed.
 */
export interface Service {
  name: string;
  child: ChildProcess;
  log: string;
}

export interface LaunchOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Run as this user (the stack refuses nothing when started as root: PostgreSQL does). */
  user?: Account;
}

export interface Account {
  uid: number;
  gid: number;
  name: string;
}

export function launch(
  name: string,
  cmd: string,
  args: string[],
  log: string,
  opts: LaunchOptions = {},
): Service {
  const out = fs.openSync(log, 'a');
  const spawnOpts: SpawnOptions = {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    detached: true,
    stdio: ['ignore', out, out],
    ...(opts.user ? { uid: opts.user.uid, gid: opts.user.gid } : {}),
  };
  const child = spawn(cmd, args, spawnOpts);
  fs.closeSync(out);
  return { name, child, log };
}

export function isRunning(s: Service): boolean {
  return s.child.exitCode === null && s.child.signalCode === null;
}

/** SIGTERM to the service's process group, SIGKILL after `graceMs`; resolves when it has exited. */
export async function stopService(s: Service, graceMs = 10_000): Promise<void> {
  if (!s.child.pid || !isRunning(s)) return;
  const exited = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-s.child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function tail(file: string, bytes = 4000): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '';
  }
}

/**
 * Polls `ready` until it resolves true; fails with the service's last output when it exits or times
 * out.
 */
export async function waitUntil(
  s: Service,
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(s))
      throw new Error(
        `${s.name} exited (${s.child.exitCode ?? s.child.signalCode}) ` +
          `before ${what}:\n${tail(s.log)}`,
      );
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${s.name}: no ${what} within ${timeoutMs / 1000} s:\n${tail(s.log)}`);
}

export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The account services run as. PostgreSQL refuses to run as root; as root we use the system
 * account its Debian package creates (or `fallback`), otherwise the current user.
 */
export function serviceAccount(fallback = 'postgres'): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${fallback}:`));
  if (!line)
    throw new Error(
      `Running as root, and there is no "${fallback}" account to run the service as.`,
    );
  const [name, , uid, gid] = line.split(':');
  return { name: name!, uid: Number(uid), gid: Number(gid) };
}

/** Hands `dir` (created if missing) to `account`, checking that it can reach it. */
export function ownDir(dir: string, account: Account | undefined, mode = 0o700): void {
  fs.mkdirSync(dir, { recursive: true, mode });
  if (!account) return;
  fs.chownSync(dir, account.uid, account.gid);
  for (let p = dir; p !== '/';) {
    p = fs.realpathSync(`${p}/..`);
    if (!(fs.statSync(p).mode & 0o001)) {
      throw new Error(
        `${p} is not searchable by other users, so the ` +
          `"${account.name}" account cannot reach ${dir}: chmod o+x it or ` +
          'use another folder.',
      );
    }
  }
}

/**
 * Why a test service can be neither taken from the environment (`given`, a URL CI sets) nor
 * started here (`findBinary` throws, saying what to install); null when one of them can.
 */
export function unavailableUnless(
  given: string | undefined,
  findBinary: () => unknown,
): string | null {
  if (given) return null;
  try {
    findBinary();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
