import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Stack = {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
};

const root = path.resolve(import.meta.dirname, '..', '..');

async function waitForHttp(url: string, deadline: number, procs: ChildProcess[]): Promise<void> {
  while (Date.now() < deadline) {
    const dead = procs.find((p) => p.exitCode !== null);
    if (dead)
      throw new Error(
        `${dead.spawnargs.join(' ')} exited with ${dead.exitCode} before the server was ready`,
      );
    try {
      // Any answer means it listens; a page that fails then fails its test with the real error.
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer in time`);
}

function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      resolve();
    }, 10_000);
    p.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-p.pid!, 'SIGTERM'); // the whole group: npx, next and its workers
    } catch {
      resolve();
    }
  });
}

/**
 * A real Keyout stack on a fresh DATA_DIR: the web app (`next start` when E2E_PROD=1 after a
 * build, `next dev` otherwise) and one server worker. E2E_BASE_URL skips all of this and targets
 * a stack someone already runs.
 */
export async function startStack(): Promise<Stack> {
  if (process.env.E2E_BASE_URL) {
    return {
      url: process.env.E2E_BASE_URL.replace(/\/$/, ''),
      dataDir: '',
      env: process.env,
      stop: async () => {},
    };
  }
  const port = Number(process.env.E2E_PORT ?? 3310);
  // localhost, not 127.0.0.1: next dev refuses its HMR socket to other hosts, and the page keeps
  // reloading.
  const url = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-e2e-'));
  const logDir = path.join(root, 'e2e-artifacts', 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  // Playwright sets NODE_ENV=test; next picks its own per command, so it is left out.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV'),
  );
  // Private URLs are allowed: the tests serve background images and run scripts on loopback.
  const env = {
    ...inherited,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    KEYOUT_ALLOW_PRIVATE_URLS: '1',
  } as unknown as NodeJS.ProcessEnv;

  const web =
    process.env.E2E_PROD === '1'
      ? ['next', 'start', '-p', String(port)]
      : ['next', 'dev', '-p', String(port)];
  const spawnLogged = (name: string, cmd: string, args: string[]) => {
    const out = fs.openSync(path.join(logDir, `${name}.log`), 'w');
    return spawn(cmd, args, { cwd: root, env, stdio: ['ignore', out, out], detached: true });
  };
  const procs = [spawnLogged('web', 'npx', web)];
  if (process.env.E2E_NO_WORKER !== '1')
    procs.push(spawnLogged('worker', process.execPath, ['bin/worker.mjs']));
  const stop = async () => {
    await Promise.all(procs.map(stopProcess));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/`, Date.now() + 240_000, procs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir, env, stop };
}
