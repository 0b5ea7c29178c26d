/**
 * Speed benchmark: end-to-end fps of the server pipeline (ffmpeg decode → engine → FFV1 mask)
 * and seconds per frame in each stage (decode, infer, refine, encode), per tier, at 480p, 720p
 * and 1080p, plus the naive baseline (ISNet 1024² on every frame, thresholded) and each tier's
 * speed-up over it at the same resolution. On a shared CPU the figures are noisy: compare
 * configurations measured in the same run.
 *
 *   npm run bench:speed -- [--configs service-light,baseline] [--resolutions 480,720,1080]
 *                          [--frames 30] [--clip <video>] [--rounds 1] [--json out.json]
 *
 * --rounds N runs the configs in turn N times and keeps each config's median run, so a slow
 * spell of the host does not fall on one config only.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { probeVideo } from '../lib/media/probe';
import { segmentVideoWith } from '../lib/segment/mask-video';
import { benchConfigs } from './lib-bench/configs';
import { parseArgs, table } from './lib-bench/frames';

const run = promisify(execFile);
const args = parseArgs(process.argv.slice(2));
const clip = path.resolve(
  args.get('clip') ?? '../shared/testdata/videos/sam2_05_juggle_fullbody_1280x720.mp4',
);
const frames = Number(args.get('frames') ?? 30);
const rounds = Math.max(1, Number(args.get('rounds') ?? 1));
const resolutions = (args.get('resolutions') ?? '480,720,1080').split(',').map(Number);
const configs = benchConfigs(
  (
    args.get('configs') ?? 'service-light,service-human,service-original,service-pro,baseline'
  ).split(','),
  args,
);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-s-'));

interface Row {
  config: string;
  height: number;
  frames: number;
  keys: number;
  fps: number;
  decode_ms: number;
  infer_ms: number;
  refine_ms: number;
  encode_ms: number;
  vs_baseline: string;
}
const rows: Row[] = [];
try {
  if (!fs.existsSync(clip)) throw new Error(`clip not found: ${clip} (pass --clip <video>)`);
  for (const h of resolutions) {
    const input = path.join(tmp, `clip-${h}p.mp4`);
    // Even width for 4:2:0; frames beyond what the bench uses are not encoded.
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      clip,
      '-frames:v',
      String(frames),
      '-vf',
      `scale=-2:${h}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-an',
      input,
    ]);
    const info = await probeVideo(input);
    // A worker keeps its sessions loaded between jobs: load and warm each model (its first run
    // is slower) before the timed runs, so the first config does not pay for the others.
    if (h === resolutions[0]) {
      for (const cfg of configs)
        await segmentVideoWith({
          input,
          info,
          maskOut: path.join(tmp, 'warm.mkv'),
          tier: cfg.tier,
          manifest: cfg.manifest,
          threshold: cfg.threshold,
          maxFrames: 1,
        });
    }
    for (let round = 0; round < rounds; round++)
      for (const cfg of configs) {
        const res = await segmentVideoWith({
          input,
          info,
          maskOut: path.join(tmp, `${cfg.name}-${h}.mkv`),
          tier: cfg.tier,
          manifest: cfg.manifest,
          threshold: cfg.threshold,
        });
        const per = (k: string) => ((res.stageSeconds[k] ?? 0) / res.framesWritten) * 1000;
        rows.push({
          config: cfg.name,
          height: h,
          frames: res.framesWritten,
          keys: res.inferences,
          fps: res.framesWritten / res.seconds,
          decode_ms: per('decode'),
          infer_ms: per('infer'),
          refine_ms: per('refine'),
          encode_ms: per('encode'),
          vs_baseline: '',
        });
        console.error(
          `${h}p ${cfg.name}${rounds > 1 ? ` (round ${round + 1})` : ''}: ` +
            `${(res.framesWritten / res.seconds).toFixed(2)} fps`,
        );
      }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
/** Each config's median run per resolution (all runs with --rounds 1). */
function medians(all: Row[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of all)
    groups.set(`${r.config}@${r.height}`, [...(groups.get(`${r.config}@${r.height}`) ?? []), r]);
  return [...groups.values()].map(
    (g) => [...g].sort((a, b) => a.fps - b.fps)[Math.floor(g.length / 2)]!,
  );
}
const runs = rows.map((r) => ({ ...r }));
rows.splice(0, rows.length, ...medians(rows));
for (const r of rows) {
  const base = rows.find((b) => b.config === 'baseline-isnet-1024' && b.height === r.height);
  r.vs_baseline = base ? `${(r.fps / base.fps).toFixed(1)}x` : '';
}
console.log(table(rows.map((r) => ({ ...r, fps: Number(r.fps.toFixed(2)) }))));
if (args.has('json'))
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify(
      { date: new Date().toISOString(), clip, frames, rounds, cpus: os.cpus().length, rows, runs },
      null,
      2,
    ),
  );
process.exit(0);
