/**
 * Quality benchmark on DAVIS-2016 sequences (../shared/testdata/davis and davis-train, 32 in all): J (mean IoU at
 * alpha ≥ 0.5), boundary F (DAVIS F-measure) and flicker (mean |alpha_t − alpha_t−1| where the
 * ground truth did not change), per tier and for the naive baseline. Runs the real server
 * pipeline (ffmpeg decode → engine → FFV1 mask) and scores the decoded mask file.
 *
 *   npm run bench:quality -- [--configs service-original,baseline] [--sequences blackswan]
 *                            [--frames 20] [--json out.json] [--base service-light --custom '{"inputSide":320}']
 *                            [--cache] [--masks <dir>]
 *
 * Every sequence under --davis and --davis-train runs unless --sequences names some. The default
 * configs are today's tiers, the same tiers without the subject stage (":no-subject") and the
 * naive baseline. --cache keeps model answers in .bench/model-cache between runs (tuning; fps
 * is then meaningless). --masks keeps each predicted mask video there (<sequence>-<config>.mkv)
 * for scripts/look-mattes.ts.
 *
 * Two reference rows per sequence score the ground truth softened or grown by one pixel: the
 * flicker a matte gets when its edges are right to within a pixel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeVideo } from '../lib/media/probe';
import { serverRuntime } from '../lib/inference/server-runtime';
import { segmentVideoWith } from '../lib/segment/segment-video';
import { cachedRuntime } from './lib-bench/cached-runtime';
import { benchConfigs } from './lib-bench/configs';
import { parseArgs, readGrayFrames, table } from './lib-bench/frames';
import { boundaryF, flickerSum, groundTruthReferences, iou } from './lib-bench/metrics';

const args = parseArgs(process.argv.slice(2));
const roots = [args.get('davis') ?? '../shared/testdata/davis', args.get('davis-train') ?? '../shared/testdata/davis-train'].map((d) => path.resolve(d));
/** Sequence name → its folder (video.mp4 and masks/). */
const folders = new Map(roots.filter((r) => fs.existsSync(r)).flatMap((r) => fs.readdirSync(r).filter((s) => fs.existsSync(path.join(r, s, 'video.mp4'))).map((s) => [s, path.join(r, s)] as const)));
if (!folders.size) {
  console.error(`DAVIS test data not found at ${roots.join(' or ')} (pass --davis <dir>).`);
  process.exit(2);
}
const sequences = args.get('sequences')?.split(',') ?? [...folders.keys()].sort();
const DEFAULT_CONFIGS = 'service-light:no-subject,service-light,service-human,service-original:no-subject,service-original,service-pro:no-subject,service-pro,baseline';
const configs = benchConfigs((args.get('configs') ?? DEFAULT_CONFIGS).split(','), args);
const runtime = args.has('cache') ? cachedRuntime(await serverRuntime(), path.resolve('.bench/model-cache')) : undefined;
const maxFrames = args.has('frames') ? Number(args.get('frames')) : undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-q-'));
if (args.has('masks')) fs.mkdirSync(args.get('masks')!, { recursive: true });

interface Row {
  config: string;
  sequence: string;
  frames: number;
  keys: number;
  J: number;
  F: number;
  flicker: number;
  fps: number;
}
const rows: Row[] = [];

/** J, F and flicker of a predicted mask sequence against the ground truth. */
function score(pred: Uint8Array[], gt: Uint8Array[], w: number, h: number) {
  const n = Math.min(pred.length, gt.length);
  let J = 0;
  let F = 0;
  let fl = 0;
  let fn = 0;
  for (let i = 0; i < n; i++) {
    J += iou(pred[i]!, gt[i]!);
    F += boundaryF(pred[i]!, gt[i]!, w, h);
    if (i > 0) {
      const f = flickerSum(pred[i - 1]!, pred[i]!, gt[i - 1]!, gt[i]!);
      fl += f.sum;
      fn += f.n;
    }
  }
  return { J: J / n, F: F / n, flicker: fn ? fl / fn : 0 };
}

try {
  for (const seq of sequences) {
    const folder = folders.get(seq);
    if (!folder) throw new Error(`No sequence "${seq}" under ${roots.join(' or ')}`);
    const video = path.join(folder, 'video.mp4');
    const info = await probeVideo(video);
    const gt = await readGrayFrames(['-i', path.join(folder, 'masks', '%05d.png')], info.width, info.height, maxFrames);
    for (const cfg of configs) {
      const maskOut = path.join(args.get('masks') ?? tmp, `${seq}-${cfg.name}.mkv`);
      const res = await segmentVideoWith({ input: video, info, maskOut, tier: cfg.tier, manifest: cfg.manifest, threshold: cfg.threshold, maxFrames, runtime });
      const pred = await readGrayFrames(['-i', maskOut], info.width, info.height);
      const row = { config: cfg.name, sequence: seq, frames: Math.min(pred.length, gt.length), keys: res.inferences, ...score(pred, gt, info.width, info.height), fps: res.framesWritten / res.seconds };
      rows.push(row);
      console.error(`${seq} ${cfg.name}: ${row.keys} keys, J ${row.J.toFixed(3)} F ${row.F.toFixed(3)} flicker ${row.flicker.toFixed(4)} (${row.fps.toFixed(2)} fps)`);
    }
    for (const ref of groundTruthReferences(gt, info.width, info.height)) rows.push({ config: ref.name, sequence: seq, frames: gt.length, keys: 0, ...score(ref.frames, gt, info.width, info.height), fps: 0 });
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const summary = [...new Set(rows.map((r) => r.config))].map((config) => {
  const mine = rows.filter((r) => r.config === config);
  const mean = (k: 'J' | 'F' | 'flicker' | 'fps') => mine.reduce((s, r) => s + r[k], 0) / Math.max(1, mine.length);
  return { config, sequence: 'mean', frames: mine.reduce((s, r) => s + r.frames, 0), keys: mine.reduce((s, r) => s + r.keys, 0), J: mean('J'), F: mean('F'), flicker: mean('flicker'), fps: mean('fps') };
});
console.log(table([...rows, ...summary].map((r) => ({ ...r, flicker: Number(r.flicker.toFixed(4)) }))));
if (args.has('json')) {
  fs.writeFileSync(args.get('json')!, JSON.stringify({ date: new Date().toISOString(), maxFrames: maxFrames ?? null, rows, summary }, null, 2));
}
process.exit(0);
