/**
 * Probe for issue 44, item 4 (the figures in engine/subject/sam-vote.ts): how ISNet's and SAM's
 * answers combine when both are given the ground truth's box. On every Nth frame of each clip
 * of a fold: ISNet on the whole frame (the tier's saliency) kept inside the grown box, SAM from
 * the box, and each combination rule below, scored by J; "oracle" is the better of the two per
 * frame (a bound, not a method). Model answers are cached in .bench/model-cache.
 *
 *   npx tsx scripts/probe-sam-vote.ts --fold 1 --every 10
 */
import fs from 'node:fs';
import path from 'node:path';
import { resampleRgb, type FloatMap } from '../engine/matte/image';
import { boxMean } from '../engine/matte/box';
import { ISNET } from '../engine/models/catalog';
import { grow } from '../engine/subject/choose';
import { boxOf, type Box } from '../engine/prompts/detector';
import { SAM_DECODER, SAM_ENCODER } from '../engine/prompts/models';
import { serverRuntime } from '../lib/inference/server-runtime';
import { probeVideo } from '../lib/media/probe';
import { readFrames } from '../lib/segment/frame-reader';
import { cachedRuntime } from './lib-bench/cached-runtime';
import { isnetWhole, samFromBox } from './lib-bench/ceilings';
import { foldClips, isFold } from './lib-bench/folds';
import { parseArgs, readGrayFrames } from './lib-bench/frames';
import { boundaryF, iou } from './lib-bench/metrics';

const args = parseArgs(process.argv.slice(2));
const fold = args.get('fold') ?? '1';
if (!isFold(fold)) throw new Error('--fold 1|2');
const every = Number(args.get('every') ?? 10);
const roots = ['../shared/testdata/davis', '../shared/testdata/davis-train'].map((d) =>
  path.resolve(d),
);
const runtime = cachedRuntime(await serverRuntime(), path.resolve('.bench/model-cache'));
const [isnet, encoder, decoder] = await Promise.all([
  runtime.load(ISNET),
  runtime.load(SAM_ENCODER),
  runtime.load(SAM_DECODER),
]);

interface Frame {
  I: FloatMap;
  S: FloatMap;
  samScore: number;
  zone: Box;
  truth: Uint8Array;
}

const bin = (m: ArrayLike<number>, cut = 0.5) => Uint8Array.from(m, (x) => (x >= cut ? 255 : 0));
const inZone = (z: Box, w: number) => (i: number) => {
  const x = i % w;
  const y = (i / w) | 0;
  return x >= z[0] && x < z[2] && y >= z[1] && y < z[3];
};

/** Combination rules: each gives a binary answer from one frame's two soft answers. */
const RULES: Record<string, (f: Frame) => Uint8Array> = {
  isnet: (f) => {
    const z = inZone(f.zone, f.I.width);
    return bin(f.I.data.map((p, i) => (z(i) ? p : 0)));
  },
  sam: (f) => bin(f.S.data),
  'isnet-sure-else-sam': (f) => {
    const z = inZone(f.zone, f.I.width);
    return bin(f.I.data.map((p, i) => (!z(i) ? 0 : Math.abs(p - 0.5) > 0.3 ? p : f.S.data[i]!)));
  },
  'isnet-near-sam': (f) => near(f, 0.02),
  'isnet-near-sam-5': (f) => near(f, 0.05),
  'union-near': (f) => {
    const n = near(f, 0.02);
    return n.map((v, i) => (v || f.S.data[i]! >= 0.5 ? 255 : 0));
  },
  'agree-else-sam': (f) => agreeElse(f, 0.7),
  'agree-else-sam-5': (f) => agreeElse(f, 0.5),
  mean: (f) => weightedMean(f, 0.5),
  'mean-open-0.5': (f) => openedMean(f, 0.005),
  'mean-open-1': (f) => openedMean(f, 0.01),
  'mean-open-2': (f) => openedMean(f, 0.02),
  'mean-0.4': (f) => weightedMean(f, 0.4),
  'mean-0.6': (f) => weightedMean(f, 0.6),
  'mean-logit': (f) => {
    const z = inZone(f.zone, f.I.width);
    const logit = (p: number) => Math.log(Math.max(1e-4, p) / Math.max(1e-4, 1 - p));
    return bin(f.I.data.map((p, i) => (z(i) && logit(p) + logit(f.S.data[i]!) >= 0 ? 1 : 0)));
  },
};

/**
 * The mean's decision only where the two disagree over more than a thin band (the disagreement
 * opened by a square of `reach` × the long side): along the edges ISNet's answer stays.
 */
function openedMean(f: Frame, reach: number): Uint8Array {
  const { width: w, height: h } = f.I;
  const r = Math.max(1, Math.round(reach * Math.max(w, h)));
  const isnet = RULES.isnet!(f);
  const voted = weightedMean(f, 0.5);
  const differ = Float32Array.from(isnet, (v, i) => (v !== voted[i] ? 1 : 0));
  const eroded = boxMean(differ, w, h, r).map((m) => (m > 0.999 ? 1 : 0));
  const opened = boxMean(eroded, w, h, r);
  return isnet.map((v, i) => (opened[i]! > 0 ? voted[i]! : v));
}

/** ISNet's weight w against SAM's 1 − w, inside the zone. */
function weightedMean(f: Frame, w: number): Uint8Array {
  const z = inZone(f.zone, f.I.width);
  return bin(f.I.data.map((p, i) => (z(i) ? w * p + (1 - w) * f.S.data[i]! : 0)));
}

/** ISNet's answer where it lies within a reach of SAM's mask (SAM's extent, ISNet's edges). */
function near(f: Frame, reach: number): Uint8Array {
  const { width: w, height: h } = f.I;
  const r = Math.max(1, Math.round(reach * Math.max(w, h)));
  const grown = boxMean(bin(f.S.data).map((x) => (x ? 1 : 0)) as unknown as Float32Array, w, h, r);
  const z = inZone(f.zone, w);
  return bin(f.I.data.map((p, i) => (z(i) && grown[i]! > 0 ? p : 0)));
}

/** ISNet when the two agree (IoU ≥ t), SAM otherwise. */
function agreeElse(f: Frame, t: number): Uint8Array {
  const i = RULES.isnet!(f);
  const s = RULES.sam!(f);
  return iou(i, s) >= t ? i : s;
}

async function frameAnswers(
  planes: Float32Array[],
  width: number,
  height: number,
  box: Box,
): Promise<Omit<Frame, 'truth'>> {
  const I = await isnetWhole(isnet, planes, width, height);
  const sam = await samFromBox(encoder, decoder, planes, width, height, box);
  return { I, S: sam.probability, samScore: sam.score, zone: grow(box, 0.1, width, height) };
}

const totals: Record<string, number[]> = {};
for (const seq of foldClips(fold)) {
  const folder = roots.map((r) => path.join(r, seq)).find((d) => fs.existsSync(d))!;
  const video = path.join(folder, 'video.mp4');
  const info = await probeVideo(video);
  const { width, height } = info;
  const gt = await readGrayFrames(['-i', path.join(folder, 'masks', '%05d.png')], width, height);
  const sums: Record<string, number> = { oracle: 0 };
  let n = 0;
  let index = -1;
  const scores: string[] = [];
  for await (const frame of readFrames(info, video, { maxFrames: gt.length })) {
    if (++index % every !== 0) continue;
    const truth = gt[index]!;
    const box = boxOf({ data: truth, width, height }, 128);
    if (!box) continue;
    const f = {
      ...(await frameAnswers(resampleRgb(frame, width, height), width, height, box)),
      truth,
    };
    const answers = Object.entries(RULES).map(([k, rule]) => [k, rule(f)] as const);
    const js = Object.fromEntries(answers.map(([k, a]) => [k, iou(a, truth)]));
    for (const [k, j] of Object.entries(js)) sums[k] = (sums[k] ?? 0) + j;
    for (const [k, a] of answers.filter(([k]) => k === 'isnet' || k.startsWith('mean')))
      sums[`F:${k}`] = (sums[`F:${k}`] ?? 0) + boundaryF(a, truth, width, height);
    sums.oracle! += Math.max(js.isnet!, js.sam!);
    scores.push(`${f.samScore.toFixed(2)}:${js.isnet!.toFixed(2)}/${js.sam!.toFixed(2)}`);
    n++;
  }
  const line = Object.entries(sums)
    .map(([k, s]) => `${k} ${(s / n).toFixed(3)}`)
    .join('  ');
  console.log(`${seq} (${n}): ${line}`);
  console.log(`  samScore:isnet/sam ${scores.join(' ')}`);
  for (const [k, s] of Object.entries(sums)) (totals[k] ??= []).push(s / n);
}
console.log(
  `MEAN fold ${fold}: ${Object.entries(totals)
    .map(([k, v]) => `${k} ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)}`)
    .join('  ')}`,
);
process.exit(0);
