/**
 * Edge-colour benchmark with known answers. Real subjects (DAVIS sequences: the frame is the
 * subject's colour, its ground-truth mask softened by a Gaussian is the alpha) are laid over known
 * backgrounds (saturated colours and a real frame of another clip), I = αF + (1 − α)B, so the true
 * foreground F of every soft pixel is known. Scores, in the soft band, the colour a cut-out shows
 * against F: passed through as filmed (what outputs carried before) and after foreground estimation
 * (engine/matte/foreground.ts, what the renders now lay over anything new: docs/outputs.md), at
 * 480p and 1080p (the frames upscaled), with the known alpha and, per tier, with the matte the tier
 * itself makes of the composite (its own band). Also the time the estimation adds per frame and as
 * a share of the tier's.
 *
 *   npm run bench:edges -- [--sequences dance-twirl,lucia] [--frames 3] [--tiers
 *   service-human,service-original] [--resolutions 480,1080] [--json out.json] [--cache dir]
 *
 * --cache keeps each tier's masks of the composites (and its time a frame) in a folder and reads
 * them back on the next run, so estimator changes are scored without running the tiers again.
 *
 * Error: mean absolute difference per 8-bit channel, weighted by alpha (what a composite shows of
 * it), over pixels with SOFT_BAND.min ≤ α ≤ SOFT_BAND.max.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { estimateForeground, SOFT_BAND } from '../engine/matte/foreground';
import { ffmpeg } from '../lib/media/ffmpeg';
import { probeVideo } from '../lib/media/probe';
import { segmentVideoWith } from '../lib/segment/mask-video';
import { benchConfigs } from './lib-bench/configs';
import { parseArgs, readGrayFrames, readRgbaFrames, table } from './lib-bench/frames';

const args = parseArgs(process.argv.slice(2));
const ROOTS = [
  args.get('davis') ?? '../shared/testdata/davis',
  args.get('davis-train') ?? '../shared/testdata/davis-train',
].map((d) => path.resolve(d));
const sequences = (args.get('sequences') ?? 'dance-twirl,lucia').split(',');
const frames = Number(args.get('frames') ?? 3);
const tiers = benchConfigs(
  (args.get('tiers') ?? 'service-human,service-original').split(',').filter(Boolean),
  args,
);
const resolutions = (args.get('resolutions') ?? '480,1080').split(',').map(Number);
/** The real background: a frame of a clip with no person in it. */
const REAL_BG = path.resolve(
  args.get('background') ?? '../shared/testdata/videos/kivy_cityCC0_no_subject_720x405_first4s.mpg',
);
const COLOURS: Record<string, [number, number, number]> = {
  magenta: [255, 0, 255],
  green: [0, 177, 64],
  blue: [0, 71, 187],
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-edges-'));

interface Row {
  sequence: string;
  height: number;
  background: string;
  alpha: string;
  passthrough: number;
  estimated: number;
  ratio: number;
  estimateMs: number;
  tierMs: number | string;
  share: string;
}
const rows: Row[] = [];

/** I = αF + (1 − α)B as RGBA with α in the fourth channel. */
function composite(
  fg: Uint8Array,
  alpha: Uint8Array,
  bg: (p: number, c: number) => number,
): Uint8Array {
  const out = new Uint8Array(fg.length);
  for (let p = 0; p < alpha.length; p++) {
    const a = alpha[p]! / 255;
    for (let c = 0; c < 3; c++)
      out[p * 4 + c] = Math.round(a * fg[p * 4 + c]! + (1 - a) * bg(p, c));
    out[p * 4 + 3] = alpha[p]!;
  }
  return out;
}

/**
 * Alpha-weighted mean absolute error of `colour` against the true foreground in alpha's soft band,
 * where the true alpha has the subject (elsewhere a tier's soft pixel has no true foreground).
 */
function bandError(
  colour: Uint8Array,
  fg: Uint8Array,
  alpha: Uint8Array,
  truth: Uint8Array,
): { sum: number; weight: number } {
  let sum = 0;
  let weight = 0;
  for (let p = 0; p < alpha.length; p++) {
    const a8 = alpha[p]!;
    if (a8 < SOFT_BAND.min || a8 > SOFT_BAND.max || truth[p]! < SOFT_BAND.min) continue;
    const a = a8 / 255;
    for (let c = 0; c < 3; c++) sum += a * Math.abs(colour[p * 4 + c]! - fg[p * 4 + c]!);
    weight += 3 * a;
  }
  return { sum, weight };
}

/**
 * Scores frames (colour with its alpha) against the true foreground: passthrough, estimated, ms per
 * frame.
 */
function score(
  inputs: Uint8Array[],
  fgs: Uint8Array[],
  alphas: Uint8Array[],
  truths: Uint8Array[],
  w: number,
  h: number,
) {
  let before = 0;
  let after = 0;
  let weight = 0;
  let ms = 0;
  inputs.forEach((input, i) => {
    const frame = input.slice();
    for (let p = 0; p < w * h; p++) frame[p * 4 + 3] = alphas[i]![p]!;
    const b = bandError(frame, fgs[i]!, alphas[i]!, truths[i]!);
    const t = performance.now();
    estimateForeground({ data: frame, width: w, height: h, layout: 'rgba' });
    ms += performance.now() - t;
    before += b.sum;
    weight += b.weight;
    after += bandError(frame, fgs[i]!, alphas[i]!, truths[i]!).sum;
  });
  return { passthrough: before / weight, estimated: after / weight, ms: ms / inputs.length };
}

/** The composite written as a clip (near-lossless H.264 4:4:4) for a tier to cut out. */
async function writeClip(frames: Uint8Array[], w: number, h: number, file: string) {
  const raw = path.join(tmp, 'raw.rgba');
  fs.writeFileSync(raw, Buffer.concat(frames.map((f) => Buffer.from(f))));
  await ffmpeg([
    '-v',
    'error',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    `${w}x${h}`,
    '-r',
    '25',
    '-i',
    raw,
    '-vf',
    'format=yuv444p',
    '-c:v',
    'libx264',
    '-crf',
    '8',
    '-preset',
    'veryfast',
    file,
  ]);
}

/** A tier's mask of the clip and its time a frame: made now, or read from --cache. */
async function tierMask(
  cfg: (typeof tiers)[number],
  clip: string,
  info: Awaited<ReturnType<typeof probeVideo>>,
  frames: number,
  name: string,
) {
  const dir = args.get('cache') ?? tmp;
  fs.mkdirSync(dir, { recursive: true });
  const maskOut = path.join(dir, `${name}.mkv`);
  const timing = path.join(dir, `${name}.json`);
  if (args.has('cache') && fs.existsSync(maskOut) && fs.existsSync(timing))
    return {
      maskOut,
      tierMs: (JSON.parse(fs.readFileSync(timing, 'utf8')) as { tierMs: number }).tierMs,
    };
  const res = await segmentVideoWith({
    input: clip,
    info,
    maskOut,
    tier: cfg.tier,
    manifest: cfg.manifest,
    threshold: cfg.threshold,
    maxFrames: frames,
  });
  const tierMs = (1000 * res.seconds) / res.framesWritten;
  fs.writeFileSync(timing, JSON.stringify({ tierMs }));
  return { maskOut, tierMs };
}

async function runTiers(
  seq: string,
  height: number,
  background: string,
  comps: Uint8Array[],
  truth: { fgs: Uint8Array[]; alphas: Uint8Array[] },
  w: number,
  h: number,
  knownMs: number,
) {
  const clip = path.join(tmp, `${seq}-${height}-${background}.mp4`);
  await writeClip(comps, w, h, clip);
  const info = await probeVideo(clip);
  const decoded = await readRgbaFrames(['-i', clip], w, h, comps.length);
  for (const cfg of tiers) {
    const { maskOut, tierMs } = await tierMask(
      cfg,
      clip,
      info,
      comps.length,
      `${seq}-${height}-${background}-${cfg.name}-${comps.length}`,
    );
    const alphas = await readGrayFrames(['-i', maskOut], w, h);
    const s = score(decoded, truth.fgs, alphas, truth.alphas, w, h);
    rows.push({
      sequence: seq,
      height,
      background,
      alpha: cfg.name,
      passthrough: s.passthrough,
      estimated: s.estimated,
      ratio: s.estimated / s.passthrough,
      estimateMs: s.ms,
      tierMs,
      share: `${((100 * Math.max(s.ms, knownMs)) / tierMs).toFixed(1)} %`,
    });
    console.error(
      `${seq} ${height}p ${background} ${cfg.name}: ` +
        `${s.passthrough.toFixed(1)} → ${s.estimated.toFixed(1)} (tier ` +
        `${tierMs.toFixed(0)} ms/frame)`,
    );
  }
}

async function benchSequence(seq: string, height: number) {
  const folder = ROOTS.map((r) => path.join(r, seq)).find((f) =>
    fs.existsSync(path.join(f, 'video.mp4')),
  );
  if (!folder) throw new Error(`No sequence "${seq}" under ${ROOTS.join(' or ')}`);
  const src = await probeVideo(path.join(folder, 'video.mp4'));
  const w = Math.round((src.width * height) / src.height / 2) * 2;
  const scale = `scale=${w}:${height}:flags=bicubic`;
  const fgs = await readRgbaFrames(
    ['-i', path.join(folder, 'video.mp4'), '-vf', scale],
    w,
    height,
    frames,
  );
  // The mask softened as a matting model's edge is (about 2 px of Gaussian at 480p), after
  // shrinking it by twice that: the soft band then lies on the subject, whose colour is known.
  const sigma = (2 * height) / 480;
  const erode = Array.from({ length: Math.round(2 * sigma) }, () => 'erosion').join(',');
  const alphas = await readGrayFrames(
    [
      '-i',
      path.join(folder, 'masks', '%05d.png'),
      '-vf',
      `${scale},format=gray,${erode},gblur=sigma=${sigma}`,
    ],
    w,
    height,
    frames,
  );
  const real = (
    await readRgbaFrames(
      ['-i', REAL_BG, '-vf', `${scale}:force_original_aspect_ratio=increase,crop=${w}:${height}`],
      w,
      height,
      1,
    )
  )[0]!;
  const backgrounds: [string, (p: number, c: number) => number][] = [
    ...Object.entries(COLOURS).map(([name, rgb]): [string, (p: number, c: number) => number] => [
      name,
      (_p, c) => rgb[c]!,
    ]),
    ['real frame', (p, c) => real[p * 4 + c]!],
  ];
  for (const [name, bg] of backgrounds) {
    const comps = fgs.map((f, i) => composite(f, alphas[i]!, bg));
    const s = score(comps, fgs, alphas, alphas, w, height);
    rows.push({
      sequence: seq,
      height,
      background: name,
      alpha: 'known',
      passthrough: s.passthrough,
      estimated: s.estimated,
      ratio: s.estimated / s.passthrough,
      estimateMs: s.ms,
      tierMs: '',
      share: '',
    });
    console.error(
      `${seq} ${height}p ${name} known alpha: ` +
        `${s.passthrough.toFixed(1)} → ${s.estimated.toFixed(1)} ` +
        `(${s.ms.toFixed(0)} ms/frame)`,
    );
    if (name === 'magenta' || name === 'real frame')
      await runTiers(seq, height, name, comps, { fgs, alphas }, w, height, s.ms);
  }
}

try {
  for (const height of resolutions) for (const seq of sequences) await benchSequence(seq, height);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
const fmt = (v: number) => Number(v.toFixed(2));
console.log(
  table(
    rows.map((r) => ({
      ...r,
      passthrough: fmt(r.passthrough),
      estimated: fmt(r.estimated),
      ratio: fmt(r.ratio),
      estimateMs: Math.round(r.estimateMs),
      tierMs: typeof r.tierMs === 'number' ? Math.round(r.tierMs) : r.tierMs,
    })),
  ),
);
if (args.has('json'))
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify({ date: new Date().toISOString(), frames, rows }, null, 2),
  );
process.exit(0);
