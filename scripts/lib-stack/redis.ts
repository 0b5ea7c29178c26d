import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { launch, stopService, waitUntil, type Service } from './processes';

/**
 * A Redis server of our own (the distribution's redis-server) on 127.0.0.1:`port`, for BullMQ,
 * with a password generated into `dir` on first start. In-memory only by default (tests);
 * `durable` keeps an append-only file in `dir`.
 */
export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  service: Service;
}

export function redisBin(): string {
  const bin = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';
  if (!fs.existsSync(bin))
    throw new Error(
      `redis-server was not found at ${bin} (Debian: apt-get install ` +
        'redis-server); set REDIS_SERVER_BIN.',
    );
  return bin;
}

export async function startRedis({
  dir,
  port,
  durable = false,
}: {
  dir: string;
  port: number;
  durable?: boolean;
}): Promise<RedisServer> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(dir, 'password');
  if (!fs.existsSync(passwordFile))
    fs.writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = fs.readFileSync(passwordFile, 'utf8');
  // The password goes in a file, not on the command line where `ps` shows it.
  const conf = path.join(dir, 'redis.conf');
  const settings = {
    port,
    bind: '127.0.0.1',
    dir,
    requirepass: password,
    save: '""',
    appendonly: durable ? 'yes' : 'no',
  };
  fs.writeFileSync(
    conf,
    Object.entries(settings)
      .map(([k, v]) => `${k} ${v}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  const service = launch('redis', redisBin(), [conf], path.join(dir, 'redis.log'));
  const url = `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const ready = waitUntil(service, 'connections', async () => {
    const r = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } finally {
      r.disconnect();
    }
  });
  await ready.catch(async (e: unknown) => {
    await stopService(service);
    throw e;
  });
  return { url, service, stop: () => stopService(service) };
}
