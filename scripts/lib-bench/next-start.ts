import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * `next start` of the last build on a free port with a fresh DATA_DIR (web only: the studio needs
 * no worker).
 */
export async function startNext(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-web-'));
  const proc: ChildProcess = spawn(
    path.resolve('node_modules/.bin/next'),
    ['start', '-p', String(port)],
    {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'production' },
      stdio: 'ignore',
      detached: true,
    },
  );
  const url = `http://localhost:${port}`;
  for (let i = 0; i < 240; i++) {
    if (proc.exitCode !== null)
      throw new Error(`next start exited (${proc.exitCode}); run npx next build first`);
    try {
      await fetch(url, { redirect: 'manual' });
      return {
        url,
        stop: () => {
          process.kill(-proc.pid!, 'SIGTERM');
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error('next start did not answer');
}
