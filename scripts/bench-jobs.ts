/**
 * Job-time benchmark: what a self-hoster waits for. Each row is one job as the worker runs it,
 * end to end: probe, decode → engine → FFV1 mask (segmentVideoWith, what segment-video runs)
 * with the default output, VP9 WebM with alpha, rendered meanwhile from the mask as it is
 * written, then validated (`<tier>@before`: rendered after the mask, by renderOutput, as jobs
 * ran before). Each row runs in a process of its own, so its peak RSS (the whole process tree:
 * node, onnxruntime, the ffmpeg decoders and encoders) is its own.
 *
 *   npm run bench:jobs -- [--configs service-light@before,service-light,…,baseline]
 *                         [--clips juggle-1080p,talking-head] [--seconds 2] [--no-references]
 *                         [--json out.json]
 *
 * --seconds cuts every clip to its first N seconds: a quick check of the script, not a figure.
 * --no-references leaves out the reference rows (the 4K clip, `--clips phone-4k`, for its peak
 * RSS). `<tier>@before` runs a tier as jobs ran before the speed work
 * (scripts/lib-bench/configs.ts).
 *
 * Reference rows in the same run: "render only" (the same output from a ready mask, so the
 * segmentation's share shows) and the naive baseline (ISNet 1024² on every frame). Models are
 * loaded inside the timed run, as a freshly started worker would. The host's speed moves between
 * hours: compare rows of one run, and read the load average printed beside each row.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, table } from './lib-bench/frames';
import { DEFAULT_JOB_CLIPS, prepareJobClip, RENDER_ONLY } from './lib-bench/job-clips';
import { peakTreeRss } from './lib-bench/tree-rss';
import { oneArenaEnv } from '../bin/one-arena.mjs';

const args = parseArgs(process.argv.slice(2));
const configs = (
  args.get('configs') ??
  'service-light@before,service-light,service-human@before,' +
    'service-human,service-original@before,service-original,' +
    'baseline'
).split(',');
const clipNames = args.get('clips')?.split(',') ?? DEFAULT_JOB_CLIPS;
const references = !args.has('no-references');
/** What a `custom` config is made of (scripts/lib-bench/configs.ts), for each job's process. */
const customArgs = ['base', 'custom'].flatMap((k) => (args.has(k) ? [`--${k}`, args.get(k)!] : []));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-j-'));

interface JobRow {
  clip: string;
  config: string;
  seconds: number;
  'x real time': number;
  'peak RSS MiB': number;
  'load avg (1 min)': number;
  output: string;
}

/** One job in a child process (scripts/lib-bench/one-job.ts); its wall time and peak tree RSS. */
async function runJob(
  clip: string,
  config: string,
  mask: string,
  out: string,
): Promise<{ seconds: number; peakBytes: number; line: string }> {
  // glibc's malloc set as the worker runs it (bin/one-arena.mjs), so the peak is the worker's.
  const env = oneArenaEnv(process.env);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/lib-bench/one-job.ts', clip, config, mask, out, ...customArgs],
    { stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  const peak = peakTreeRss(child.pid!);
  let line = '';
  child.stdout.on('data', (d: Buffer) => (line += d.toString()));
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  const peakBytes = peak.stop();
  if (code !== 0) throw new Error(`${config} on ${path.basename(clip)} exited with ${code}`);
  return { seconds, peakBytes, line: line.trim() };
}

const rows: JobRow[] = [];
try {
  for (const name of clipNames) {
    const clip = await prepareJobClip(
      name,
      tmp,
      args.has('seconds') ? Number(args.get('seconds')) : undefined,
    );
    const mask = path.join(tmp, `${name}-ready-mask.mkv`);
    // The render-only row renders from this mask; making it is not timed.
    if (references)
      await runJob(
        clip.file,
        `prepare-mask:${RENDER_ONLY.maskFrom}`,
        mask,
        path.join(tmp, 'unused.webm'),
      );
    for (const config of references ? [RENDER_ONLY.name, ...configs] : configs) {
      const out = path.join(tmp, `${name}-${config}.webm`);
      const job = await runJob(clip.file, config, mask, out);
      const row: JobRow = {
        clip: `${name} (${clip.seconds.toFixed(1)} s, ${clip.width}x${clip.height})`,
        config,
        seconds: job.seconds,
        'x real time': job.seconds / clip.seconds,
        'peak RSS MiB': Math.round(job.peakBytes / 2 ** 20),
        'load avg (1 min)': os.loadavg()[0]!,
        output: job.line,
      };
      rows.push(row);
      console.error(
        `${row.clip} ${config}: ${row.seconds.toFixed(1)} s ` +
          `(${row['x real time'].toFixed(2)}x real time), peak ` +
          `${row['peak RSS MiB']} MiB, load ` +
          `${row['load avg (1 min)'].toFixed(1)}`,
      );
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(table(rows.map((r) => ({ ...r }))));
if (args.has('json'))
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, rows }, null, 2),
  );
process.exit(0);
