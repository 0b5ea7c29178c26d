/**
 * Quality benchmark on DAVIS-2016 sequences (../shared/testdata/davis and davis-train, 32 in all):
 * J (mean IoU at alpha ≥ 0.5), boundary F (DAVIS F-measure) and flicker (mean |alpha_t − alpha_t−1|
 * where the ground truth did not change), per tier and for the naive baseline. Runs the real server
 * pipeline (ffmpeg decode → engine → FFV1 mask) and scores the decoded mask file.
 *
 *   npm run bench:quality -- [--configs service-original,baseline] [--sequences blackswan | --fold
 *   2] [--tuned-on 1] [--no-ceilings] [--ceiling-every 5]
 *                            [--sampled-baseline] [--frames 20] [--json out.json] [--base
 *                            service-light --custom '{"inputSide":320}'] [--cache] [--masks <dir>]
 *
 * Sequences run at full length (--frames N cuts them, for quick tuning only: figures to report
 * are full length). Every sequence under --davis and --davis-train runs unless --sequences or
 * --fold names some. Means are given per fold (scripts/lib-bench/folds.ts) and over all clips;
 * --tuned-on names the fold tuning looked at, and the other is reported as held out. The default
 * configs are today's tiers, the same tiers without the subject stage (":no-subject") and the
 * naive baseline. Two ceiling rows per clip (scripts/lib-bench/ceilings.ts: ISNet inside the
 * ground truth's box, SAM from it, on every --ceiling-every'th frame) split each tier's loss
 * into choice and segmentation in the last table; --sampled-baseline adds the naive baseline on
 * the same frames (per frame by definition, so sampling adds only noise; leave "baseline" out of
 * --configs then, to spare its ISNet run on every frame). --cache keeps model answers in
 * .bench/model-cache between runs (tuning; fps is then meaningless). --masks keeps each predicted
 * mask video there (<sequence>-<config>.mkv) for scripts/look-mattes.ts.
 *
 * Two reference rows per sequence score the ground truth softened or grown by one pixel: the
 * flicker a matte gets when its edges are right to within a pixel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeVideo } from '../lib/media/probe';
import { serverRuntime } from '../lib/inference/server-runtime';
import { segmentVideoWith } from '../lib/segment/mask-video';
import { cachedRuntime } from './lib-bench/cached-runtime';
import { BASELINE, benchConfigs } from './lib-bench/configs';
import { parseArgs, readGrayFrames, table } from './lib-bench/frames';
import { ceilingScores, SAMPLED_BASELINE } from './lib-bench/ceilings';
import { foldClips, isFold } from './lib-bench/folds';
import { boundaryF, flickerSum, groundTruthReferences, iou } from './lib-bench/metrics';
import { foldSummary, lossSplit, type QualityRow } from './lib-bench/quality-report';

const args = parseArgs(process.argv.slice(2));
const roots = [
  args.get('davis') ?? '../shared/testdata/davis',
  args.get('davis-train') ?? '../shared/testdata/davis-train',
].map((d) => path.resolve(d));
/** Sequence name → its folder (video.mp4 and masks/). */
const folders = new Map(
  roots
    .filter((r) => fs.existsSync(r))
    .flatMap((r) =>
      fs
        .readdirSync(r)
        .filter((s) => fs.existsSync(path.join(r, s, 'video.mp4')))
        .map((s) => [s, path.join(r, s)] as const),
    ),
);
if (!folders.size) {
  console.error(`DAVIS test data not found at ${roots.join(' or ')} (pass --davis <dir>).`);
  process.exit(2);
}
const fold = args.get('fold');
const tunedOn = args.get('tuned-on') ?? '1';
if ((fold !== undefined && !isFold(fold)) || !isFold(tunedOn)) {
  console.error('--fold and --tuned-on take 1 or 2 (scripts/lib-bench/folds.ts).');
  process.exit(2);
}
const sequences =
  args.get('sequences')?.split(',') ?? (fold ? foldClips(fold) : [...folders.keys()].sort());
const ceilingEvery = args.has('no-ceilings') ? 0 : Number(args.get('ceiling-every') ?? 5);
const DEFAULT_CONFIGS =
  'service-light:no-subject,service-light,service-human,' +
  'service-original:no-subject,service-original,' +
  'service-pro:no-subject,service-pro,baseline';
const configs = benchConfigs((args.get('configs') ?? DEFAULT_CONFIGS).split(','), args);
const runtime = args.has('cache')
  ? cachedRuntime(await serverRuntime(), path.resolve('.bench/model-cache'))
  : undefined;
const maxFrames = args.has('frames') ? Number(args.get('frames')) : undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-q-'));
if (args.has('masks')) fs.mkdirSync(args.get('masks')!, { recursive: true });

const rows: QualityRow[] = [];

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
    const gt = await readGrayFrames(
      ['-i', path.join(folder, 'masks', '%05d.png')],
      info.width,
      info.height,
      maxFrames,
    );
    for (const cfg of configs) {
      const maskOut = path.join(args.get('masks') ?? tmp, `${seq}-${cfg.name}.mkv`);
      const res = await segmentVideoWith({
        input: video,
        info,
        maskOut,
        tier: cfg.tier,
        manifest: cfg.manifest,
        threshold: cfg.threshold,
        maxFrames,
        runtime,
      });
      const pred = await readGrayFrames(['-i', maskOut], info.width, info.height);
      const row = {
        config: cfg.name,
        sequence: seq,
        frames: Math.min(pred.length, gt.length),
        keys: res.inferences,
        ...score(pred, gt, info.width, info.height),
        fps: res.framesWritten / res.seconds,
      };
      rows.push(row);
      console.error(
        `${seq} ${cfg.name}: ${row.keys} keys, J ${row.J.toFixed(3)} F ` +
          `${row.F.toFixed(3)} flicker ${row.flicker.toFixed(4)} ` +
          `(${row.fps.toFixed(2)} fps)`,
      );
    }
    for (const ref of groundTruthReferences(gt, info.width, info.height))
      rows.push({
        config: ref.name,
        sequence: seq,
        frames: gt.length,
        keys: 0,
        ...score(ref.frames, gt, info.width, info.height),
        fps: 0,
      });
    if (ceilingEvery > 0) {
      for (const c of await ceilingScores(
        runtime ?? (await serverRuntime()),
        video,
        info,
        gt,
        ceilingEvery,
        args.has('sampled-baseline'),
      )) {
        rows.push({ ...c, sequence: seq, keys: c.frames, flicker: 0, fps: 0 });
        console.error(
          `${seq} ${c.config}: J ${c.J.toFixed(3)} F ${c.F.toFixed(3)} ` +
            `(every ${ceilingEvery}th frame)`,
        );
      }
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const summary = foldSummary(rows, tunedOn);
const losses = lossSplit(
  rows,
  configs.some((c) => c.name === BASELINE.name) ? BASELINE.name : SAMPLED_BASELINE,
);
console.log(
  table([...rows, ...summary].map((r) => ({ ...r, flicker: Number(r.flicker.toFixed(4)) }))),
);
console.log(
  '\nPer clip: each tier against the naive baseline, and its loss split at the better ceiling' +
    (ceilingEvery ? ` (ceilings on every ${ceilingEvery}th frame)` : ' (ceilings not run)') +
    '.\n',
);
console.log(table(losses));
if (args.has('json')) {
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        maxFrames: maxFrames ?? null,
        tunedOn,
        ceilingEvery,
        rows,
        summary,
        losses,
      },
      null,
      2,
    ),
  );
}
process.exit(0);
