/**
 * `npm run bench:scale [-- --jobs 4 --pickups 8 --seconds 10]`: the embedded stack (SQLite,
 * the queue in the database, local files) and the scale-out stack (PostgreSQL, BullMQ on Redis,
 * S3 on OpenStack Swift + s3api) measured the same way in one run, so the ratios hold however
 * busy the host is:
 *   - jobs per minute with 2 workers, then with 1 (one worker stopped), `--jobs` short real
 *     clips started at once (service-light, 1 s of a 512x512 clip);
 *   - queue pickup latency, start answered → a worker logs `started`, of `--pickups` jobs sent
 *     one at a time to idle workers (it includes the outbox relay: what a user waits for);
 *   - GET /v1/jobs/{id}/status p50/p99 under 50 concurrent pollers for `--seconds`;
 *   - PostgreSQL connections (pg_stat_activity, by process) at their peak during the runs.
 * Both stacks run from tests/integration/helpers (`next start` when the build is fresh).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  api,
  createAccount,
  cutClip,
  hasTestdata,
  startStack,
  syntheticClip,
  testVideo,
  uploadedJob,
  waitForJob,
  type Stack,
  type StackKind,
} from '../tests/integration/helpers';
import { percentile } from './lib-bench/metrics';
import { startScaleServices } from './lib-stack/scale-services';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '4' },
    pickups: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const JOBS = Number(values.jobs);
const PICKUPS = Number(values.pickups);
const POLL_SECONDS = Number(values.seconds);
const MODEL = 'service-light';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  jobsPerMin2: number;
  jobsPerMin1: number;
  pickupP50: number;
  pickupP99: number;
  statusP50: number;
  statusP99: number;
  statusRps: number;
  pgPeak: string;
  /** 1-minute load average when the stack started and when it was measured. */
  load: string;
}

/** Peak PostgreSQL connections to the stack's database, in total and by process name. */
function watchConnections(stack: Stack): { stop(): Promise<string> } {
  if (stack.kind !== 'scale') return { stop: () => Promise.resolve('n/a (SQLite)') };
  const url = new URL(stack.env.DATABASE_URL!);
  const client = new pg.Client({ connectionString: url.toString(), application_name: 'bench' });
  let peak = 0;
  let peakBy = '';
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ app: string; n: string }>(
        'SELECT application_name AS app, count(*) AS n FROM ' +
          'pg_stat_activity WHERE datname = $1 AND application_name <> ' +
          "'bench' GROUP BY 1 ORDER BY 1",
        [url.pathname.slice(1)],
      );
      const total = rows.reduce((s, r) => s + Number(r.n), 0);
      if (total > peak)
        [peak, peakBy] = [total, rows.map((r) => `${r.app || '?'} ${r.n}`).join(', ')];
      await sleep(250);
    }
    await client.end();
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return `${peak} (${peakBy})`;
    },
  };
}

/**
 * Starts `count` uploaded jobs at once and waits for all: jobs per minute, start to last
 * completion.
 */
async function throughput(stack: Stack, key: string, clip: string, count: number): Promise<number> {
  const ids = await Promise.all(Array.from({ length: count }, () => uploadedJob(stack, key, clip)));
  const t0 = Date.now();
  await Promise.all(
    ids.map(async (id, i) => {
      const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
        key,
        web: i % stack.baseUrls.length,
        body: { model: MODEL },
      });
      if (r.status !== 200) throw new Error(`start answered ${r.status}: ${r.text}`);
    }),
  );
  for (const id of ids) {
    const done = await waitForJob(stack, key, id, { timeoutMs: 900_000 });
    if (done.status !== 'completed')
      throw new Error(`job ${id} ${done.status}: ${done.message}\n${stack.logs()}`);
  }
  return count / ((Date.now() - t0) / 60_000);
}

const STARTED = /\[worker(?: \d)?\] \[worker\] segment-video (\S+) \(attempt 1\/\d\): started/g;

/** Start answered → a worker claims it, for jobs sent one at a time to idle workers (ms). */
async function pickups(stack: Stack, key: string, clip: string, count: number): Promise<number[]> {
  const seen = new Set([...stack.logs().matchAll(STARTED)].map((m) => m[1]));
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = await uploadedJob(stack, key, clip);
    const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, { key, body: { model: MODEL } });
    if (r.status !== 200) throw new Error(`start answered ${r.status}: ${r.text}`);
    const answered = Date.now();
    for (;;) {
      const fresh = [...stack.logs().matchAll(STARTED)]
        .map((m) => m[1]!)
        .filter((q) => !seen.has(q));
      if (fresh.length) {
        out.push(Date.now() - answered);
        fresh.forEach((q) => seen.add(q));
        break;
      }
      if (Date.now() - answered > 120_000)
        throw new Error(`no worker picked job ${id} up:\n${stack.logs()}`);
      await sleep(5);
    }
    await waitForJob(stack, key, id, { timeoutMs: 600_000 });
    await sleep(300);
  }
  return out;
}

async function measure(kind: StackKind, clip: string): Promise<Figures> {
  console.log(`\n━━ ${kind} stack ━━`);
  const load0 = os.loadavg()[0]!.toFixed(1);
  const stack = await startStack({
    scale: kind === 'scale',
    workers: 2,
    webs: kind === 'scale' ? 2 : 1,
    env: { RATE_LIMIT_PER_MINUTE: '1000000000', STARTS_PER_MINUTE: '100000' },
  });
  const connections = watchConnections(stack);
  try {
    const { key } = await createAccount(stack, 100_000);
    // Warm-up: routes, models and connections loaded once on both workers.
    await throughput(stack, key, clip, 2);
    const jobsPerMin2 = await throughput(stack, key, clip, JOBS);
    console.log(`  2 workers: ${jobsPerMin2.toFixed(2)} jobs/min`);
    const pickup = await pickups(stack, key, clip, PICKUPS);
    console.log(`  pickup: ${pickup.join(', ')} ms`);
    const probe = await uploadedJob(stack, key, clip);
    await api(stack, 'POST', `/v1/jobs/${probe}/start`, { key, body: { model: MODEL } });
    await waitForJob(stack, key, probe, { timeoutMs: 600_000 });
    const poll = await autocannon({
      url: `${stack.baseUrl}/v1/jobs/${probe}/status`,
      connections: 50,
      duration: POLL_SECONDS,
      headers: { 'X-Api-Key': key },
    });
    if (poll.non2xx) throw new Error(`${poll.non2xx} status answers were not 2xx`);
    console.log(
      `  status: p50 ${poll.latency.p50} ms, p99 ${poll.latency.p99} ` +
        `ms, ${poll.requests.average.toFixed(0)} req/s`,
    );
    // One worker stopped (SIGTERM, it drains): the same batch on the other.
    process.kill(-stack.workerPids()[1]!, 'SIGTERM');
    await sleep(12_000);
    const jobsPerMin1 = await throughput(stack, key, clip, JOBS);
    console.log(`  1 worker: ${jobsPerMin1.toFixed(2)} jobs/min`);
    return {
      jobsPerMin2,
      jobsPerMin1,
      pickupP50: percentile(pickup, 50),
      pickupP99: percentile(pickup, 99),
      statusP50: poll.latency.p50,
      statusP99: poll.latency.p99,
      statusRps: poll.requests.average,
      pgPeak: await connections.stop(),
      load: `${load0} → ${os.loadavg()[0]!.toFixed(1)}`,
    };
  } finally {
    await connections.stop().catch(() => '');
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-scale-'));
  try {
    const clip = hasTestdata
      ? await cutClip(
          testVideo('liveportrait_d12_talking_glasses_512.mp4'),
          path.join(tmp, 'talk-1s.mp4'),
          1,
        )
      : await syntheticClip(path.join(tmp, 'talk-1s.mp4'), { seconds: 1, size: '512x512' });
    const kinds: StackKind[] = values.only ? [values.only as StackKind] : ['embedded', 'scale'];
    const figures = new Map<StackKind, Figures>();
    for (const kind of kinds) {
      if (kind === 'embedded') {
        figures.set(kind, await measure(kind, clip));
        continue;
      }
      // The services the scale-out stack shares, started once on one block of ports (as test:scale
      // does).
      const services = await startScaleServices();
      Object.assign(process.env, services.env);
      try {
        figures.set(kind, await measure(kind, clip));
      } finally {
        await services.stop();
      }
    }

    const e = figures.get('embedded');
    const s = figures.get('scale');
    const ratio = (f: (x: Figures) => number) => (e && s ? `${(f(s) / f(e)).toFixed(2)}x` : '');
    const rows: [string, (x: Figures) => string, string][] = [
      [
        `jobs/min, 2 workers (${JOBS} × 1 s 512x512, ${MODEL})`,
        (x) => x.jobsPerMin2.toFixed(2),
        ratio((x) => x.jobsPerMin2),
      ],
      [`jobs/min, 1 worker`, (x) => x.jobsPerMin1.toFixed(2), ratio((x) => x.jobsPerMin1)],
      ['2 workers / 1 worker', (x) => `${(x.jobsPerMin2 / x.jobsPerMin1).toFixed(2)}x`, ''],
      [
        `pickup p50 (start → claimed, ${PICKUPS} jobs)`,
        (x) => `${x.pickupP50} ms`,
        ratio((x) => x.pickupP50),
      ],
      ['pickup p99', (x) => `${x.pickupP99} ms`, ratio((x) => x.pickupP99)],
      [
        `GET status p50 (50 pollers, ${POLL_SECONDS} s)`,
        (x) => `${x.statusP50} ms`,
        ratio((x) => x.statusP50),
      ],
      ['GET status p99', (x) => `${x.statusP99} ms`, ratio((x) => x.statusP99)],
      ['GET status req/s', (x) => x.statusRps.toFixed(0), ratio((x) => x.statusRps)],
      ['PostgreSQL connections at peak', (x) => x.pgPeak, ''],
      ['load average (1 min), start → end', (x) => x.load, ''],
    ];
    console.log(
      `\n| metric | ${kinds.join(' | ')} | scale / embedded ` +
        `|\n|---|${kinds.map(() => '---|').join('')}---|`,
    );
    for (const [name, show, r] of rows)
      console.log(`| ${name} | ${kinds.map((k) => show(figures.get(k)!)).join(' | ')} | ${r} |`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
