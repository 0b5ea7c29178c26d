/**
 * GET /v1/jobs/{id}/status under 50 pollers while a worker is busy on a real 10 s 720p clip,
 * for this checkout and, in the same run, for a baseline commit (the host's speed moves 2-5x
 * between hours, so only figures from one run compare).
 *
 *   npx tsx scripts/bench-status.ts [--baseline <git ref>] [--stacks embedded,scale] [--seconds 30]
 *   [--pollers 50] [--interval-ms 1000]
 *
 * Two loads, one after the other, while the job is segmenting:
 *   pollers      each poller asks every --interval-ms (staggered), as clients do (they poll every 2
 *   s): the latency a client sees;
 *   saturation   50 connections asking back to back (autocannon): the throughput ceiling, and the
 *                latency of a server that is never idle (the figure the hardening review quoted).
 *
 * The baseline is exported with `git archive` into .bench/<sha> (node_modules hard-linked, Prisma
 * client generated, built once and kept). Each checkout runs its own stack (its own
 * tests/integration/helpers) on `next start`; this checkout is built first when its build is stale.
 * The per-key request limit is lifted: the bench measures the server, not the limiter's 429s.
 * `--stacks embedded,scale` measures each checkout on both stacks, one after the other: the
 * scale-out one is PostgreSQL, BullMQ on Redis and S3, servers of its own (as in the tests).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type * as Helpers from '../tests/integration/helpers';
import { build, buildIsCurrent } from './bootstrap.mjs';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    pollers: { type: 'string', default: '50' },
    'interval-ms': { type: 'string', default: '1000' },
    model: { type: 'string', default: 'service-original' },
    stacks: { type: 'string', default: 'embedded' },
  },
});
const STACKS = values.stacks.split(',') as Helpers.StackKind[];
if (!STACKS.length || STACKS.some((k) => k !== 'embedded' && k !== 'scale'))
  throw new Error(`--stacks: embedded, scale or both, not ${values.stacks}`);
const SECONDS = Number(values.seconds);
const POLLERS = Number(values.pollers);
const INTERVAL_MS = Number(values['interval-ms']);
const ROOT = path.resolve(import.meta.dirname, '..');

function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
}

/** A checkout of `ref` next to this one, ready to serve. */
function prepareBaseline(ref: string): { dir: string; label: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = path.join(ROOT, '.bench', sha);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    // Hard links: the same packages at no cost in space (a symlink would leave the project root).
    sh('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')], ROOT);
    fs.symlinkSync(path.join(ROOT, 'models-cache'), path.join(dir, 'models-cache'));
    sh('npx', ['prisma', 'generate'], dir, { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath });
  }
  if (!buildIsCurrent(dir)) build(dir);
  return { dir, label: `baseline ${sha}` };
}

function prepareCurrent(): { dir: string; label: string } {
  if (!buildIsCurrent(ROOT)) build(ROOT);
  const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim()
    ? '+changes'
    : '';
  return { dir: ROOT, label: `this checkout ${sha}${dirty}` };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** `POLLERS` clients, each asking every INTERVAL_MS from a staggered start; latencies in ms. */
async function poll(url: string, key: string): Promise<{ latencies: number[]; errors: string[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: POLLERS });
  const latencies: number[] = [];
  const errors: string[] = [];
  const until = Date.now() + SECONDS * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        url,
        { agent, headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) errors.push(String(res.statusCode));
            resolve();
          });
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        errors.push(e.code ?? e.message);
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: POLLERS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * INTERVAL_MS) / POLLERS));
      while (Date.now() < until) {
        const next = Date.now() + INTERVAL_MS;
        await one();
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
    }),
  );
  agent.destroy();
  return { latencies: latencies.sort((a, b) => a - b), errors };
}

interface Row {
  label: string;
  pollers: { n: number; p50: number; p99: number; max: number; errors: string[] };
  saturation: { rps: number; p50: number; p99: number; non2xx: number };
  busy: string;
  /** The host's 1-minute load average when the pollers started. */
  load: number;
  /** CPU the web process spent per poller request (user + system). */
  cpuPerRequest: number;
}

/** CPU time (ms) used so far by every process in a process group. */
function groupCpuMs(pgid: number | null): number {
  if (!pgid) return 0;
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // ended meanwhile
    }
  }
  return (ticks * 1000) / 100; // USER_HZ
}

async function measure(
  tree: { dir: string; label: string },
  kind: Helpers.StackKind,
  clip: string,
): Promise<Row> {
  const helpers = (await import(
    pathToFileURL(path.join(tree.dir, 'tests/integration/helpers/index.ts')).href
  )) as typeof Helpers;
  const stack = await helpers.startStack({
    worker: true,
    scale: kind === 'scale',
    env: { RATE_LIMIT_PER_MINUTE: '1000000000' },
  });
  const label = STACKS.length > 1 ? `${tree.label}, ${kind}` : tree.label;
  try {
    if (stack.kind !== kind)
      throw new Error(`${tree.label}: its test helpers start no ${kind} stack`);
    if (stack.mode !== 'start')
      throw new Error(
        `${tree.label}: the stack runs next ${stack.mode}; the bench needs a production build`,
      );
    const { key } = await helpers.createAccount(stack, 1000);
    const jobId = await helpers.uploadedJob(stack, key, clip);
    const started = await helpers.api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
      key,
      body: { model: values.model },
    });
    if (started.status !== 200)
      throw new Error(`start answered ${started.status}: ${started.text}`);
    const statusOf = async () =>
      (
        await helpers.api<{ status: string; message: string | null }>(
          stack,
          'GET',
          `/v1/jobs/${jobId}/status`,
          { key },
        )
      ).body;
    await helpers.waitFor(
      async () =>
        (await statusOf()).message?.startsWith('Removing the background: frame') ? true : undefined,
      {
        timeoutMs: 300_000,
        what: 'the worker to be segmenting',
      },
    );
    const url = `${stack.baseUrl}/v1/jobs/${jobId}/status`;
    const load = os.loadavg()[0]!;
    const cpu0 = groupCpuMs(stack.pids().web);
    const polled = await poll(url, key);
    const cpuPerRequest = (groupCpuMs(stack.pids().web) - cpu0) / polled.latencies.length;
    const sat = await autocannon({
      url,
      connections: 50,
      duration: SECONDS,
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    });
    const after = await statusOf();
    return {
      label,
      pollers: {
        n: polled.latencies.length,
        p50: quantile(polled.latencies, 0.5),
        p99: quantile(polled.latencies, 0.99),
        max: polled.latencies.at(-1) ?? NaN,
        errors: polled.errors,
      },
      saturation: {
        rps: sat.requests.average,
        p50: sat.latency.p50,
        p99: sat.latency.p99,
        non2xx: sat.non2xx,
      },
      busy: after.status === 'processing' ? `yes (${after.message ?? ''})` : `no: ${after.status}`,
      load,
      cpuPerRequest,
    };
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const helpers = await import('../tests/integration/helpers');
  if (!helpers.hasTestdata)
    throw new Error('../shared/testdata is missing: the bench needs a real 720p clip');
  const trees = [...(values.baseline ? [prepareBaseline(values.baseline)] : []), prepareCurrent()];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-status-'));
  try {
    const clip = await helpers.cutClip(
      helpers.testVideo('sam2_05_juggle_fullbody_1280x720.mp4'),
      path.join(tmp, 'juggle-10s.mp4'),
      10,
    );
    const rows: Row[] = [];
    for (const tree of trees) for (const kind of STACKS) rows.push(await measure(tree, kind, clip));
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `\nGET status, ${POLLERS} pollers every ${INTERVAL_MS} ms for ` +
        `${SECONDS} s, then 50 back-to-back connections for ${SECONDS} ` +
        `s; worker on ${values.model}, ${os.cpus().length} CPUs\n`,
    );
    console.log(
      '| checkout | host load | pollers: requests | p50 | p99 | max | ' +
        'errors | web CPU per request | saturation: req/s | p50 | p99 | ' +
        'non-2xx | worker busy at the end |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.label} | ${r.load.toFixed(1)} | ${r.pollers.n} | ` +
          `${ms(r.pollers.p50)} | ${ms(r.pollers.p99)} | ` +
          `${ms(r.pollers.max)} | ` +
          `${r.pollers.errors.length ? r.pollers.errors.join(' ') : 0} | ` +
          `${ms(r.cpuPerRequest)} | ${r.saturation.rps.toFixed(0)} | ` +
          `${r.saturation.p50} ms | ${r.saturation.p99} ms | ` +
          `${r.saturation.non2xx} | ${r.busy} |`,
      );
    }
    if (rows.length === 2) {
      const [b, c] = rows as [Row, Row];
      console.log(
        `\n${b.label} → ${c.label}: pollers p99 ${ms(b.pollers.p99)} → ` +
          `${ms(c.pollers.p99)} ` +
          `(${(b.pollers.p99 / c.pollers.p99).toFixed(1)}x); saturation ` +
          `throughput ${b.saturation.rps.toFixed(0)} → ` +
          `${c.saturation.rps.toFixed(0)} req/s ` +
          `(${(c.saturation.rps / b.saturation.rps).toFixed(1)}x)`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
