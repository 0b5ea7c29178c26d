import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  api,
  createJob,
  freePort,
  putUpload,
  type ApiResponse,
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
      const hooks = { received: 0 };
      const receiver = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          hooks.received++;
          res.end('{}');
        });
      });
      const hookPort = await freePort();
      await new Promise<void>((r) => receiver.listen(hookPort, '127.0.0.1', r));
      const { stack, db } = await reliabilityStack();
      const problems: string[] = [];
      const counts = { requests: 0, jobs: 0, completed: 0, deletedRunning: 0 };
      const rss: { t: number; web: number; worker: number }[] = [];
      const t0 = Date.now();
      const until = t0 + minutes * 60_000;
      const expect = (what: string, r: ApiResponse, ok: number[]) => {
        counts.requests++;
        if (!ok.includes(r.status)) problems.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
        else if (r.status >= 400 && !isSpecError(r.text))
          problems.push(`${what}: ${r.status} body not the spec's: ${r.text.slice(0, 200)}`);
      };
      try {
        const { key } = await createAccount(stack, 1_000_000);
        const clips = [
          await testClip(stack.dataDir, 'a.mp4', 1, '320x240'),
          await testClip(stack.dataDir, 'b.mp4', 2, '256x256'),
        ];
        const active = new Set<string>();
        const toDelete = new Set<string>();
        const sampler = setInterval(() => {
          const { web, worker } = stack.pids();
          rss.push({
            t: (Date.now() - t0) / 60_000,
            web: groupRssMiB(web),
            worker: groupRssMiB(worker),
          });
        }, 5_000);
        const backgrounds = [
          null,
          { type: 'transparent', transparent_format: 'webm_vp9' },
          { type: 'color', color: '#00FF00' },
          { type: 'transparent', transparent_format: 'stacked_video' },
        ];
        const submitter = (async () => {
          let n = 0;
          while (Date.now() < until) {
            if (active.size >= 3) {
              await sleep(500);
              continue;
            }
            n++;
            const clip = clips[n % clips.length]!;
            let id: string;
            if (n % 5 === 0) {
              const form = new FormData();
              form.append(
                'file',
                new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }),
                path.basename(clip),
              );
              const res = await fetch(`${stack.baseUrl}/v1/jobs`, {
                method: 'POST',
                headers: { 'X-Api-Key': key },
                body: form,
              });
              const text = await res.text();
              expect(
                'multipart create',
                { status: res.status, text, headers: res.headers, body: {} },
                [200],
              );
              if (res.status !== 200) continue;
              id = (JSON.parse(text) as { id: string }).id;
            } else {
              const receipt = await createJob(stack, key, path.basename(clip));
              counts.requests++;
              const put = await putUpload(receipt, clip);
              counts.requests++;
              if (put.status !== 200) {
                problems.push(`upload: ${put.status} ${await put.text()}`);
                continue;
              }
              id = receipt.id;
            }
            const start = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
              key,
              body: {
                model: 'service-human',
                background: backgrounds[n % backgrounds.length],
                webhook_url: `http://127.0.0.1:${hookPort}/hook`,
              },
            });
            expect('start', start, [200]);
            counts.jobs++;
            active.add(id);
            if (n % 7 === 0) toDelete.add(id);
          }
        })();
        const poller = (async () => {
          while (Date.now() < until || active.size) {
            for (const id of [...active]) {
              const r = await api<{ status: string; message: string | null }>(
                stack,
                'GET',
                `/v1/jobs/${id}/status`,
                { key },
              );
              expect('status', r, [200]);
              if (r.status !== 200) continue;
              if (toDelete.has(id) && r.body.status === 'processing') {
                expect(
                  'delete while processing',
                  await api(stack, 'DELETE', `/v1/jobs/${id}`, { key }),
                  [200],
                );
                expect(
                  'status after delete',
                  await api(stack, 'GET', `/v1/jobs/${id}/status`, { key }),
                  [404],
                );
                counts.deletedRunning++;
                active.delete(id);
              } else if (r.body.status === 'completed') {
                counts.completed++;
                active.delete(id);
                expect(
                  'deliveries',
                  await api(stack, 'GET', `/v1/webhooks/deliveries?video_id=${id}`, { key }),
                  [200],
                );
              } else if (r.body.status === 'failed') {
                problems.push(`job ${id} failed: ${r.body.message ?? ''}`);
                active.delete(id);
              }
            }
            expect('credits', await api(stack, 'GET', '/v1/credits', { key }), [200]);
            if (Date.now() > until + 300_000) {
              problems.push(
                `${active.size} jobs still unfinished 5 minutes after the load stopped`,
              );
              break;
            }
            await sleep(2_000);
          }
        })();
        await Promise.all([submitter, poller]);
        clearInterval(sampler);
        const crashes = (
          allLogs(stack).match(
            /uncaughtException|unhandled rejection|\[api\] unexpected error/gi,
          ) ?? []
        ).length;
        if (crashes) problems.push(`${crashes} crash or 500 lines in the logs`);
        // Flat: after a warm-up (a minute; a quarter of a short soak), the last minute's median
        // within 10 % (or 40 MiB) of the next minute's (or of the quarter after the warm-up).
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
        const [web, worker] = [grew('web'), grew('worker')];
        if (!web.ok) problems.push(`web RSS grew ${web.a.toFixed(0)} → ${web.b.toFixed(0)} MiB`);
        if (!worker.ok)
          problems.push(`worker RSS grew ${worker.a.toFixed(0)} → ${worker.b.toFixed(0)} MiB`);
        const errors = problems.length;
        return {
          passed: errors === 0 && counts.completed + counts.deletedRunning === counts.jobs,
          figures:
            `${minutes} min: ${counts.jobs} jobs (${counts.completed} completed, ${counts.deletedRunning} deleted while processing), ${counts.requests} requests, ${hooks.received} webhooks received, ${errors} errors; ` +
            `RSS after warm-up → last minute: web ${web.a.toFixed(0)} → ${web.b.toFixed(0)} MiB (${web.slope >= 0 ? '+' : ''}${web.slope.toFixed(1)} MiB/min), ` +
            `worker ${worker.a.toFixed(0)} → ${worker.b.toFixed(0)} MiB (${worker.slope >= 0 ? '+' : ''}${worker.slope.toFixed(1)} MiB/min)`,
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
        await new Promise((r) => receiver.close(r));
      }
    },
  };
}
