/**
 * `npm run bench:queue-engines -- --postgres <url> --redis <url>`: the candidate queue engines
 * measured the same way in one run, on trivial jobs, so only the engine differs:
 *   - pg-boss 10 (PostgreSQL; Node 20 allows no later major),
 *   - BullMQ on Redis,
 *   - BullMQ on its PostgreSQL backend.
 * For each: pickup latency (enqueue → the handler runs) of jobs sent one at a time to idle
 * consumers, throughput (claims per second) draining a backlog with 8 concurrent consumers,
 * and the PostgreSQL connections the consumers hold. Each engine uses its own consuming loop
 * (pg-boss polls, BullMQ blocks). The numbers behind the choice in docs/operations.md.
 */
import { parseArgs } from 'node:util';
import { createPostgresBackend, Queue, Worker } from 'bullmq';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { percentile } from './lib-bench/metrics';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string' },
    redis: { type: 'string' },
    latency: { type: 'string', default: '200' },
    backlog: { type: 'string', default: '2000' },
  },
});
if (!values.postgres || !values.redis) {
  console.error('usage: bench-queue-engines --postgres postgres://… --redis redis://…');
  process.exit(2);
}
const POSTGRES = values.postgres;
const REDIS = new URL(values.redis);
const LATENCY_JOBS = Number(values.latency);
const BACKLOG = Number(values.backlog);
const CONCURRENCY = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Engine {
  name: string;
  /** Starts `concurrency` consumers calling `onJob` with the job's enqueue time (ms). */
  consume(concurrency: number, onJob: (sentAt: number) => void): Promise<void>;
  send(n: number): Promise<void>;
  close(): Promise<void>;
}

async function pgConnections(): Promise<number> {
  const c = new pg.Client({ connectionString: POSTGRES });
  await c.connect();
  const r = await c.query<{ n: string }>(
    'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = ' +
      'current_database() AND pid <> pg_backend_pid()',
  );
  await c.end();
  return Number(r.rows[0]!.n);
}

function pgBoss(queue: string): Engine {
  const boss = new PgBoss({ connectionString: POSTGRES, schema: 'bench_pgboss', max: 4 });
  let started: Promise<void> | undefined;
  const ready = () =>
    (started ??= (async () => {
      await boss.start();
      await boss.createQueue(queue);
    })());
  return {
    name: 'pg-boss 10.4 (PostgreSQL)',
    async consume(concurrency, onJob) {
      await ready();
      for (let i = 0; i < concurrency; i++) {
        await boss.work<{ at: number }>(
          queue,
          { pollingIntervalSeconds: 0.5, batchSize: 1 },
          ([job]) => Promise.resolve(onJob(job!.data.at)),
        );
      }
    },
    async send(n) {
      await ready();
      if (n === 1) await boss.send(queue, { at: Date.now() });
      else
        await boss.insert(
          Array.from({ length: n }, () => ({ name: queue, data: { at: Date.now() } })),
        );
    },
    async close() {
      await boss.deleteQueue(queue).catch(() => undefined);
      await boss.stop({ graceful: false, wait: true });
    },
  };
}

function bullmq(queue: string, backend: 'redis' | 'postgres'): Engine {
  const workers: Worker[] = [];
  const conn =
    backend === 'redis'
      ? {
          host: REDIS.hostname,
          port: Number(REDIS.port),
          password: decodeURIComponent(REDIS.password) || undefined,
        }
      : { connectionString: POSTGRES, schema: 'bench_bullmq', migrate: true };
  const make = <T>(f: (c: never, b: never) => T): T =>
    f(conn as never, (backend === 'postgres' ? createPostgresBackend : undefined) as never);
  const q = make((c, b) => new Queue(queue, { connection: c }, b));
  return {
    name: `BullMQ 6.7 (${backend === 'redis' ? 'Redis' : 'PostgreSQL backend'})`,
    async consume(concurrency, onJob) {
      const w = make(
        (c, b) =>
          new Worker<{ at: number }>(
            queue,
            (job) => Promise.resolve(onJob(job.data.at)),
            { connection: c, concurrency, removeOnComplete: { count: 0 } },
            b,
          ),
      );
      workers.push(w);
      await w.waitUntilReady();
    },
    async send(n) {
      if (n === 1) await q.add('job', { at: Date.now() }, { removeOnComplete: true });
      else
        await q.addBulk(
          Array.from({ length: n }, () => ({
            name: 'job',
            data: { at: Date.now() },
            opts: { removeOnComplete: true },
          })),
        );
    },
    async close() {
      await Promise.all(workers.map((w) => w.close(true)));
      await q.obliterate({ force: true }).catch(() => undefined);
      await q.close();
    },
  };
}

async function measure(make: (queue: string) => Engine) {
  // Latency: idle consumers, one job at a time, spaced so each is picked up alone.
  const lat = make(`lat${Date.now()}`);
  const latencies: number[] = [];
  let done = 0;
  await lat.consume(2, (at) => {
    latencies.push(Date.now() - at);
    done++;
  });
  await sleep(1000);
  const connections = await pgConnections();
  for (let i = 0; i < LATENCY_JOBS; i++) {
    const target = done + 1;
    await lat.send(1);
    while (done < target) await sleep(2);
    await sleep(20 + Math.random() * 30);
  }
  await lat.close();

  // Throughput: a backlog drained by 8 concurrent consumers.
  const thr = make(`thr${Date.now()}`);
  await thr.send(BACKLOG);
  let drained = 0;
  const t0 = Date.now();
  await thr.consume(CONCURRENCY, () => {
    drained++;
  });
  while (drained < BACKLOG) await sleep(10);
  const seconds = (Date.now() - t0) / 1000;
  await thr.close();
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    claimsPerSecond: BACKLOG / seconds,
    connections,
  };
}

const engines = [pgBoss, (q: string) => bullmq(q, 'redis'), (q: string) => bullmq(q, 'postgres')];
console.log(
  `Queue engines, ${LATENCY_JOBS} single jobs to 2 idle ` +
    `consumers, then ${BACKLOG} jobs to ${CONCURRENCY} concurrent ` +
    'consumers\n',
);
console.log(
  '| engine | pickup p50 | pickup p99 | claims/s (8 consumers) | PostgreSQL connections held |',
);
console.log('|---|---|---|---|---|');
for (const make of engines) {
  const name = make('probe').name;
  const r = await measure(make);
  console.log(
    `| ${name} | ${r.p50.toFixed(0)} ms | ${r.p99.toFixed(0)} ms | ` +
      `${r.claimsPerSecond.toFixed(0)} | ${r.connections} |`,
  );
}
process.exit(0);
