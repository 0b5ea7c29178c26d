import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  api,
  createJob,
  freePort,
  putUpload,
  type ApiResponse,
  type Stack,
} from '../../tests/integration/helpers';
import {
  allLogs,
  createAccount,
  groupRssMiB,
  isSpecError,
  reliabilityStack,
  sleep,
  testClip,
  type Part,
} from './common';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

/** The soak's shared state: who to call, until when, and what it has counted and found. */
interface Load {
  stack: Stack;
  key: string;
  hookPort: number;
  until: number;
  clips: string[];
  problems: string[];
  counts: { requests: number; jobs: number; completed: number; deletedRunning: number };
  /** Jobs started and not yet seen finished (or deleted). */
  active: Set<string>;
  /** Jobs to delete once they are seen processing. */
  toDelete: Set<string>;
}

type RssSample = { t: number; web: number; worker: number };

const BACKGROUNDS = [
  null,
  { type: 'transparent', transparent_format: 'webm_vp9' },
  { type: 'color', color: '#00FF00' },
  { type: 'transparent', transparent_format: 'stacked_video' },
];

/**
 * `minutes` of mixed load on one web process and one worker: jobs created, uploaded (PUT and
 * multipart), started with webhooks and different outputs, polled every 2 s, some deleted while
 * they run, credits and deliveries read. Nothing may answer 5xx or otherwise unexpectedly, every
 * job not deleted must complete, and the resident memory of web and worker must stay flat.
 */
export function soak(minutes: number): Part {
  return {
    name: `a ${minutes}-minute mixed-load soak`,
    async run() {
      const hooks = await webhookReceiver();
      const { stack, db } = await reliabilityStack();
      const rss: RssSample[] = [];
      const t0 = Date.now();
      try {
        const { key } = await createAccount(stack, 1_000_000);
        const clips = [
          await testClip(stack.dataDir, 'a.mp4', 1, '320x240'),
          await testClip(stack.dataDir, 'b.mp4', 2, '256x256'),
        ];
        const load: Load = {
          stack,
          key,
          hookPort: hooks.port,
          until: t0 + minutes * 60_000,
          clips,
          problems: [],
          counts: { requests: 0, jobs: 0, completed: 0, deletedRunning: 0 },
          active: new Set(),
          toDelete: new Set(),
        };
        const sampler = setInterval(() => {
          const { web, worker } = stack.pids();
          rss.push({
            t: (Date.now() - t0) / 60_000,
            web: groupRssMiB(web),
            worker: groupRssMiB(worker),
          });
        }, 5_000);
        await Promise.all([submitJobs(load), pollJobs(load)]);
        clearInterval(sampler);
        return soakResult(load, minutes, rss, hooks.received());
      } finally {
        await db.$disconnect();
        await stack.stop();
        await hooks.close();
      }
    },
  };
}

/** A local webhook endpoint that answers every delivery and counts them. */
async function webhookReceiver(): Promise<{
  port: number;
  received: () => number;
  close: () => Promise<void>;
}> {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
  return {
    port,
    received: () => received,
    close: () => new Promise((r) => receiver.close(() => r())),
  };
}

/**
 * Counts a request, and records it as a problem unless its status is one of `ok` (errors in the
 * spec's shape).
 */
function expectStatus(load: Load, what: string, r: ApiResponse, ok: number[]): void {
  load.counts.requests++;
  if (!ok.includes(r.status)) load.problems.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
  else if (r.status >= 400 && !isSpecError(r.text))
    load.problems.push(`${what}: ${r.status} body not the spec's: ${r.text.slice(0, 200)}`);
}

/**
 * Until the end of the load, keeps up to 3 jobs running: every fifth uploaded as multipart, the
 * rest by PUT, each started with a webhook and one of the backgrounds; every seventh is marked
 * for deletion while it runs.
 */
async function submitJobs(load: Load): Promise<void> {
  const { stack, key, clips, counts, active, toDelete } = load;
  let n = 0;
  while (Date.now() < load.until) {
    if (active.size >= 3) {
      await sleep(500);
      continue;
    }
    n++;
    const clip = clips[n % clips.length]!;
    const id = n % 5 === 0 ? await multipartJob(load, clip) : await putJob(load, clip);
    if (id === null) continue;
    const start = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
      key,
      body: {
        model: 'service-human',
        background: BACKGROUNDS[n % BACKGROUNDS.length],
        webhook_url: `http://127.0.0.1:${load.hookPort}/hook`,
      },
    });
    expectStatus(load, 'start', start, [200]);
    counts.jobs++;
    active.add(id);
    if (n % 7 === 0) toDelete.add(id);
  }
}

/** A job created by a multipart upload of `clip`; its id, or null when refused. */
async function multipartJob(load: Load, clip: string): Promise<string | null> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }),
    path.basename(clip),
  );
  const res = await fetch(`${load.stack.baseUrl}/v1/jobs`, {
    method: 'POST',
    headers: { 'X-Api-Key': load.key },
    body: form,
  });
  const text = await res.text();
  expectStatus(
    load,
    'multipart create',
    { status: res.status, text, headers: res.headers, body: {} },
    [200],
  );
  if (res.status !== 200) return null;
  return (JSON.parse(text) as { id: string }).id;
}

/** A job created, then `clip` PUT to its upload URL; its id, or null when the upload fails. */
async function putJob(load: Load, clip: string): Promise<string | null> {
  const receipt = await createJob(load.stack, load.key, path.basename(clip));
  load.counts.requests++;
  const put = await putUpload(receipt, clip);
  load.counts.requests++;
  if (put.status !== 200) {
    load.problems.push(`upload: ${put.status} ${await put.text()}`);
    return null;
  }
  return receipt.id;
}

/**
 * Every 2 s until the load has ended and no job is active: each active job's status, then the
 * credits. Gives up 5 minutes after the load stopped.
 */
async function pollJobs(load: Load): Promise<void> {
  const { stack, key, active } = load;
  while (Date.now() < load.until || active.size) {
    for (const id of [...active]) await pollJob(load, id);
    expectStatus(load, 'credits', await api(stack, 'GET', '/v1/credits', { key }), [200]);
    if (Date.now() > load.until + 300_000) {
      load.problems.push(`${active.size} jobs still unfinished 5 minutes after the load stopped`);
      break;
    }
    await sleep(2_000);
  }
}

/** One job's status: deletes it if marked and processing, and retires it when it has finished. */
async function pollJob(load: Load, id: string): Promise<void> {
  const { stack, key, counts, active } = load;
  const r = await api<{ status: string; message: string | null }>(
    stack,
    'GET',
    `/v1/jobs/${id}/status`,
    { key },
  );
  expectStatus(load, 'status', r, [200]);
  if (r.status !== 200) return;
  if (load.toDelete.has(id) && r.body.status === 'processing') {
    expectStatus(
      load,
      'delete while processing',
      await api(stack, 'DELETE', `/v1/jobs/${id}`, { key }),
      [200],
    );
    expectStatus(
      load,
      'status after delete',
      await api(stack, 'GET', `/v1/jobs/${id}/status`, { key }),
      [404],
    );
    counts.deletedRunning++;
    active.delete(id);
  } else if (r.body.status === 'completed') {
    counts.completed++;
    active.delete(id);
    expectStatus(
      load,
      'deliveries',
      await api(stack, 'GET', `/v1/webhooks/deliveries?video_id=${id}`, { key }),
      [200],
    );
  } else if (r.body.status === 'failed') {
    load.problems.push(`job ${id} failed: ${r.body.message ?? ''}`);
    active.delete(id);
  }
}

/** The part's outcome after the load: crash lines in the logs, memory growth, and the figures. */
function soakResult(load: Load, minutes: number, rss: RssSample[], webhooks: number) {
  const { problems, counts } = load;
  const crashes = (
    allLogs(load.stack).match(/uncaughtException|unhandled rejection|\[api\] unexpected error/gi) ??
    []
  ).length;
  if (crashes) problems.push(`${crashes} crash or 500 lines in the logs`);
  const { web, worker } = rssGrowth(rss, minutes);
  if (!web.ok) problems.push(`web RSS grew ${web.a.toFixed(0)} → ${web.b.toFixed(0)} MiB`);
  if (!worker.ok)
    problems.push(`worker RSS grew ${worker.a.toFixed(0)} → ${worker.b.toFixed(0)} MiB`);
  const errors = problems.length;
  return {
    passed: errors === 0 && counts.completed + counts.deletedRunning === counts.jobs,
    figures:
      `${minutes} min: ${counts.jobs} jobs (${counts.completed} ` +
      `completed, ${counts.deletedRunning} deleted while processing), ` +
      `${counts.requests} requests, ${webhooks} webhooks received, ` +
      `${errors} errors; ` +
      (`RSS after warm-up → last minute: web ${web.a.toFixed(0)} → ` +
        `${web.b.toFixed(0)} MiB ` +
        `(${web.slope >= 0 ? '+' : ''}${web.slope.toFixed(1)} ` +
        'MiB/min), ') +
      (`worker ${worker.a.toFixed(0)} → ${worker.b.toFixed(0)} MiB ` +
        `(${worker.slope >= 0 ? '+' : ''}${worker.slope.toFixed(1)} ` +
        'MiB/min)'),
    problems,
  };
}

/**
 * Flat: after a warm-up (a minute; a quarter of a short soak), the last minute's median
 * within 10 % (or 40 MiB) of the next minute's (or of the quarter after the warm-up).
 */
function rssGrowth(rss: RssSample[], minutes: number) {
  const window = (from: number, to: number) => rss.filter((s) => s.t >= from && s.t < to);
  const warm = Math.min(1, minutes / 4);
  const early = window(warm, Math.min(warm + 1, minutes / 2));
  const late = window(Math.max(minutes - 1, minutes / 2), minutes);
  const grew = (k: 'web' | 'worker') => {
    const [a, b] = [median(early.map((s) => s[k])), median(late.map((s) => s[k]))];
    return {
      a,
      b,
      ok: b - a <= Math.max(40, 0.1 * a),
      slope: slope(rss.filter((s) => s.t >= warm).map((s) => [s.t, s[k]])),
    };
  };
  return { web: grew('web'), worker: grew('worker') };
}
