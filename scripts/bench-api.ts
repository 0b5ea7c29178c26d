/**
 * API benchmark: GET /v1/jobs/{id}/status latency (p50/p99) under 50 concurrent pollers while a
 * worker is busy on a real 10 s 720p clip, peak RSS of the web and worker processes, and the
 * time from start to completed.
 *
 *   npx tsx scripts/bench-api.ts [--model service-light] [--seconds 20]
 *
 * Runs its own stack (tests/integration/helpers): `next start` when the build is fresh, else
 * `next dev` (much slower; the table says which). For production numbers without touching .next:
 *   node tests/integration/helpers/next-server.mjs build       # into .next/test-build
 *   KEYOUT_TEST_DIST_DIR=.next/test-build npx tsx scripts/bench-api.ts
 * The per-key request limit is lifted for the
 * pollers (RATE_LIMIT_PER_MINUTE) — the bench measures the server, not the limiter's 429s.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { api, createAccount, cutClip, hasTestdata, startStack, testVideo, uploadedJob, type Stack } from '../tests/integration/helpers';

const { values } = parseArgs({
  options: { model: { type: 'string', default: 'service-light' }, seconds: { type: 'string', default: '20' } },
});

/** Resident memory (KiB) of every process in a process group. */
function groupRssKiB(pgid: number | null): number {
  if (!pgid) return 0;
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pgid)], { encoding: 'utf8' });
    return out.split('\n').reduce((sum, l) => sum + (Number(l.trim()) || 0), 0);
  } catch {
    return 0;
  }
}

function sampleRss(stack: Stack) {
  const peak = { web: 0, worker: 0 };
  const timer = setInterval(() => {
    const { web, worker } = stack.pids();
    peak.web = Math.max(peak.web, groupRssKiB(web));
    peak.worker = Math.max(peak.worker, groupRssKiB(worker));
  }, 250);
  return { peak, stop: () => clearInterval(timer) };
}

async function main(): Promise<void> {
  if (!hasTestdata) throw new Error('../shared/testdata is missing: the bench needs a real 720p clip');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-'));
  const clip = await cutClip(testVideo('sam2_05_juggle_fullbody_1280x720.mp4'), path.join(tmp, 'juggle-10s.mp4'), 10);
  const stack = await startStack({ worker: true, env: { RATE_LIMIT_PER_MINUTE: '1000000000' } });
  const rss = sampleRss(stack);
  try {
    const { key } = await createAccount(stack, 1000);
    const jobId = await uploadedJob(stack, key, clip);
    // Warm the status route (compiles it in dev mode) before measuring.
    await api(stack, 'GET', `/v1/jobs/${jobId}/status`, { key });

    const t0 = Date.now();
    const start = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, { key, body: { model: values.model } });
    if (start.status !== 200) throw new Error(`start answered ${start.status}: ${start.text}`);
    const poll = autocannon({
      url: `${stack.baseUrl}/v1/jobs/${jobId}/status`,
      connections: 50,
      duration: Number(values.seconds),
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    });
    const result = await poll;
    let status = '';
    let message: string | null = null;
    while (!['completed', 'failed'].includes(status)) {
      const r = await api<{ status: string; message: string | null }>(stack, 'GET', `/v1/jobs/${jobId}/status`, { key });
      ({ status, message } = r.body);
      if (!['completed', 'failed'].includes(status)) await new Promise((r) => setTimeout(r, 1000));
    }
    const elapsed = (Date.now() - t0) / 1000;
    rss.stop();
    const rows: [string, string][] = [
      ['server mode', `next ${stack.mode}`],
      ['clip', `sam2_05 juggle, 1280x720, 10 s, ${values.model}`],
      ['status requests (50 pollers)', `${result.requests.total} in ${result.duration.toFixed(0)} s (${result.requests.average.toFixed(0)} req/s)`],
      ['status latency p50', `${result.latency.p50} ms`],
      ['status latency p99', `${result.latency.p99} ms`],
      ['non-2xx answers', String(result.non2xx)],
      ['peak RSS web', `${(rss.peak.web / 1024).toFixed(0)} MiB`],
      ['peak RSS worker', `${(rss.peak.worker / 1024).toFixed(0)} MiB`],
      ['start → ' + status, `${elapsed.toFixed(1)} s${status === 'failed' ? ` (${message})` : ''}`],
      ['credits charged', String(start.body.creditsUsed)],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`\n${'metric'.padEnd(width)} | value\n${'-'.repeat(width)}-|------`);
    for (const [k, v] of rows) console.log(`${k.padEnd(width)} | ${v}`);
  } finally {
    rss.stop();
    await stack.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
