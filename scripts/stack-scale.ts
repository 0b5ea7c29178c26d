/**
 * `npm run stack:scale -- --port <P> --web <N> --workers <M>`: the scale-out set-up on one
 * machine, for tests, demos and self-hosters trying it: PostgreSQL, Redis (BullMQ) and an
 * S3-compatible store (OpenStack Swift + s3api), all from the distribution's packages and kept in
 * DATA_DIR (./data/scale by default), then N web processes on ports P, P+1, … and M workers.
 * No root needed. The services take the ports after the web ones: PostgreSQL P+N, Redis P+N+1,
 * Swift P+N+2 to P+N+6. It writes DATA_DIR/stack.env, the environment the CLI needs to reach the
 * same stack, and prints every URL. SIGTERM or Ctrl-C stops everything (workers drain first).
 * docs/operations.md describes the same set-up on real machines.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyPostgresMigrations } from '../lib/db/migrate-postgres';
import { buildIfStale, prepare } from './bootstrap.mjs';
import {
  isRunning,
  launch,
  stopService,
  tail,
  waitUntil,
  type Service,
} from './lib-stack/processes';
import { startPostgres } from './lib-stack/postgres';
import { startRedis } from './lib-stack/redis';
import { startSwift } from './lib-stack/swift';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    web: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
  },
});
const port = Number(values.port);
const webs = Number(values.web);
const workers = Number(values.workers);
if (![port, webs, workers].every((n) => Number.isInteger(n) && n > 0) || port + webs + 6 > 65535) {
  console.error(
    'usage: npm run stack:scale -- --port <P> --web <N> --workers ' +
      '<M>   (whole numbers, N and M at least 1)',
  );
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data/scale'));
const logs = path.join(dataDir, 'logs');

/** A value safe inside single quotes in a shell. */
const shellQuote = (v: string) => `'${v.replaceAll("'", `'\\''`)}'`;

/** Everything started, services first; stopped in the reverse roles' order. */
const services: Service[] = [];
let stopping = false;

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(
    '\n› Stopping: web processes and workers (workers drain for up to 10 s), then the services…',
  );
  const apps = services.filter((s) => s.name.startsWith('web') || s.name.startsWith('worker'));
  await Promise.all(apps.map((s) => stopService(s, 15_000)));
  await Promise.all(services.filter((s) => !apps.includes(s)).map((s) => stopService(s)));
  console.log('✔ Stopped.');
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  prepare();
  buildIfStale();
  fs.mkdirSync(logs, { recursive: true });
  const secretFile = path.join(dataDir, 'secret');
  if (!fs.existsSync(secretFile))
    fs.writeFileSync(secretFile, randomBytes(32).toString('hex'), { mode: 0o600 });

  console.log(`› Starting PostgreSQL, Redis and Swift in ${dataDir}…`);
  // Each joins `services` as soon as it runs, so a failure of another still stops it.
  const [pg, redis, swift] = await Promise.all([
    startPostgres({ dir: path.join(dataDir, 'postgres'), port: port + webs }).then(
      (s) => (services.push(s.service), s),
    ),
    startRedis({ dir: path.join(dataDir, 'redis'), port: port + webs + 1, durable: true }).then(
      (s) => (services.push(s.service), s),
    ),
    startSwift({ dir: path.join(dataDir, 'swift'), port: port + webs + 2 }).then(
      (s) => (services.push(...s.services), s),
    ),
  ]);
  const databaseUrl = await pg.database('keyout');
  await swift.bucket('keyout');
  await applyPostgresMigrations(databaseUrl);

  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://localhost:${port}`,
    KEYOUT_SECRET: fs.readFileSync(secretFile, 'utf8'),
    DATABASE_URL: databaseUrl,
    QUEUE_PROVIDER: 'bullmq',
    REDIS_URL: redis.url,
    STORAGE_PROVIDER: 's3',
    S3_BUCKET: 'keyout',
    S3_ENDPOINT: swift.endpoint,
    S3_REGION: swift.region,
    S3_FORCE_PATH_STYLE: '1',
    S3_ACCESS_KEY_ID: swift.accessKeyId,
    S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
  };
  const envFile = path.join(dataDir, 'stack.env');
  fs.writeFileSync(
    envFile,
    "# The scale-out stack's environment (npm run stack:scale). For " +
      `the CLI:\n#   set -a; . ${envFile}; set +a; npx keyout keys ` +
      'create --email me@example.com --credits 100\n' +
      Object.entries(env)
        .map(([k, v]) => `${k}=${shellQuote(v)}`)
        .join('\n') +
      '\n',
    { mode: 0o600 },
  );

  const nextBin = path.join(root, 'node_modules/next/dist/bin/next');
  const urls: string[] = [];
  for (let i = 0; i < webs; i++) {
    const p = port + i;
    const web = launch(
      `web ${i + 1}`,
      process.execPath,
      [nextBin, 'start', '-p', String(p)],
      path.join(logs, `web-${i + 1}.log`),
      {
        cwd: root,
        env: { ...env, PORT: String(p), PGAPPNAME: `keyout-web-${i + 1}` },
      },
    );
    services.push(web);
    // The web processes are the front door: one that dies stops the stack.
    web.child.once('exit', (code) => {
      if (stopping) return;
      console.error(`✖ web ${i + 1} exited (${code}):\n${tail(web.log)}`);
      void stopAll(1);
    });
    urls.push(`http://localhost:${p}`);
  }

  const startWorker = (i: number, restarts = 0) => {
    const worker = launch(
      `worker ${i + 1}`,
      process.execPath,
      [path.join(root, 'bin/worker.mjs')],
      path.join(logs, `worker-${i + 1}.log`),
      {
        cwd: root,
        env: { ...env, PGAPPNAME: `keyout-worker-${i + 1}` },
      },
    );
    services.push(worker);
    const startedAt = Date.now();
    // A crashed worker is restarted; its job's lease lapses and another worker picks it up.
    worker.child.once('exit', (code, signal) => {
      if (stopping) return;
      services.splice(services.indexOf(worker), 1);
      const next = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
      const delay = Math.min(30_000, 1000 * 2 ** next);
      console.error(`worker ${i + 1} exited (${code ?? signal}); restarting in ${delay / 1000} s`);
      setTimeout(() => startWorker(i, next), delay);
    });
  };
  for (let i = 0; i < workers; i++) startWorker(i);

  for (const [i, url] of urls.entries()) {
    const web = services.find((s) => s.name === `web ${i + 1}`)!;
    await waitUntil(
      web,
      `an answer on ${url}`,
      async () => (await fetch(`${url}/v1/openapi`)).status < 500,
      180_000,
    );
  }
  if (!services.filter((s) => s.name.startsWith('worker')).every(isRunning))
    throw new Error(`a worker did not start: see ${logs}`);
  console.log(
    [
      '',
      `✔ Keyout scale-out stack: ${webs} web ` +
        `process${webs > 1 ? 'es' : ''}, ${workers} ` +
        `worker${workers > 1 ? 's' : ''}`,
      ...urls.map((u, i) => `  web ${i + 1}:      ${u}`),
      `  PostgreSQL: 127.0.0.1:${port + webs} (database keyout)`,
      `  Redis:      127.0.0.1:${port + webs + 1} (BullMQ)`,
      `  S3:         ${swift.endpoint} (bucket keyout, OpenStack Swift + s3api)`,
      `  logs:       ${logs}`,
      `  CLI:        set -a; . ${envFile}; set +a; npx keyout keys ` +
        'create --email me@example.com --credits 100',
      'SIGTERM or Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  console.error(`✖ ${e instanceof Error ? e.message : String(e)}`);
  void stopAll(1);
});
