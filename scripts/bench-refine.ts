/**
 * `npm run bench:refine`: refinement by a text prompt and by clicks on real clips. Each clip is
 * segmented with a base model, then refined twice from that same mask, as the API does: once by
 * its text prompt, once by clicks on one frame (`prompt.mode: "points"`), one after the other
 * (the order alternates from clip to clip, so the host's drift does not favour one). Reported
 * per clip and mode: DAVIS J of the base mask and of the refined one against the clip's ground
 * truth (where it has one), the refinement's wall time per stage, the click path's time as a
 * ratio of the text path's in the same run, the load average around each run, and the
 * process's peak RSS. Refined frames go to --out as PNGs over a checkerboard for looking at.
 *
 * With --rounds N each clip's pair is refined N times (the order alternating), and the ratio is
 * of the summed times.
 *
 *   npx tsx scripts/bench-refine.ts [--clips car-shadow,blackswan,dog] [--modes text,points]
 *   [--rounds 1] [--model service-original] [--out dir]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveApiModel, type ApiModel } from '../engine/api-models';
import { parseConcepts } from '../engine/prompts/concepts';
import type { RefineOp } from '../engine/prompts/refine';
import { ffmpeg } from '../lib/media/ffmpeg';
import { probeVideo } from '../lib/media/probe';
import type { SamPoint } from '../engine/prompts/sam';
import { refineVideo, type RefineTarget } from '../lib/refine/refine-video';
import { segmentVideo } from '../lib/segment/mask-video';
import { serverRuntime } from '../lib/inference/server-runtime';
import { iou } from './lib-bench/metrics';
import { parseArgs, readGrayFrames, table } from './lib-bench/frames';

interface Clip {
  name: string;
  video: string;
  /** Ground-truth masks (%05d.png), when the clip has them. */
  truth: string | null;
  base: ApiModel;
  op: RefineOp;
  prompt: string;
  /** The same object clicked: the frame and the points, in source pixels. */
  click: { frame: number; points: SamPoint[] };
}

const SHARED = path.resolve(import.meta.dirname, '../../shared/testdata');
const CLIPS: Clip[] = [
  {
    name: 'car-shadow',
    video: `${SHARED}/davis/car-shadow/video.mp4`,
    truth: `${SHARED}/davis/car-shadow/masks/%05d.png`,
    base: 'service-human',
    op: 'add',
    prompt: 'car',
    click: { frame: 20, points: [{ x: 397, y: 204, include: true }] },
  },
  {
    name: 'blackswan',
    video: `${SHARED}/davis/blackswan/video.mp4`,
    truth: `${SHARED}/davis/blackswan/masks/%05d.png`,
    base: 'service-original',
    op: 'subtract',
    prompt: 'bird',
    click: {
      frame: 25,
      points: [
        { x: 350, y: 325, include: true },
        { x: 472, y: 250, include: true },
      ],
    },
  },
  {
    name: 'dog',
    video: `${SHARED}/videos/sam2_01_dog_and_woman_1280x720.mp4`,
    truth: null,
    base: 'service-human',
    op: 'add',
    prompt: 'dog',
    click: { frame: 200, points: [{ x: 820, y: 420, include: true }] },
  },
];

const args = parseArgs(process.argv.slice(2));
const wanted = (args.get('clips') ?? CLIPS.map((c) => c.name).join(',')).split(',');
const modes = (args.get('modes') ?? 'text,points').split(',') as ('text' | 'points')[];
const rounds = Number(args.get('rounds') ?? 1);
const model = resolveApiModel(args.get('model') ?? 'service-original');
if (!model) throw new Error('unknown --model');
const outDir = args.get('out') ? path.resolve(args.get('out')!) : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-refine-'));
const rows: Record<string, string | number>[] = [];
const stages: Record<string, string | number>[] = [];
const ratios: Record<string, string | number>[] = [];

const meanJ = (pred: Uint8Array[], gt: Uint8Array[]) =>
  pred.reduce((s, p, i) => s + iou(p, gt[i]!), 0) / pred.length;
/** Share of pixels ≥ 128, averaged over frames. */
const coverage = (frames: Uint8Array[]) =>
  frames.reduce((s, f) => s + f.reduce((n, v) => n + (v >= 128 ? 1 : 0), 0) / f.length, 0) /
  frames.length;

try {
  for (const [n, clip] of CLIPS.filter((c) => wanted.includes(c.name)).entries()) {
    const info = await probeVideo(clip.video);
    const baseMask = path.join(work, `${clip.name}-base.mkv`);
    await segmentVideo({ input: clip.video, info, maskOut: baseMask, model: clip.base });
    const read = (f: string) => readGrayFrames(['-i', f], info.width, info.height);
    const before = await read(baseMask);
    const gt = clip.truth
      ? await readGrayFrames(['-i', clip.truth], info.width, info.height)
      : null;
    const seconds: Partial<Record<string, number>> = {};
    const runs = Array.from({ length: rounds }, (_, r) =>
      (n + r) % 2 ? [...modes].reverse() : modes,
    ).flat();
    for (const mode of runs) {
      const refined = path.join(work, `${clip.name}-${mode}.mkv`);
      const target: RefineTarget =
        mode === 'text' ? { mode, concepts: parseConcepts(clip.prompt) } : { mode, ...clip.click };
      const load = os.loadavg()[0]!;
      const res = await refineVideo({
        input: clip.video,
        info,
        maskIn: baseMask,
        maskOut: refined,
        scratchDir: work,
        runtime: await serverRuntime(),
        model,
        op: clip.op,
        target,
        edgeCleanup: null,
      });
      seconds[mode] = (seconds[mode] ?? 0) + res.seconds;
      const after = await read(refined);
      const what =
        mode === 'text'
          ? `"${clip.prompt}"`
          : `${clip.click.points.length} click(s) on frame ${clip.click.frame}`;
      rows.push({
        clip: clip.name,
        size: `${info.width}x${info.height}`,
        frames: res.frames,
        refine: `${clip.base} then ${clip.op} ${what} (${model})`,
        'J before': gt ? meanJ(before, gt) : 'n/a',
        'J after': gt ? meanJ(after, gt) : 'n/a',
        'cover before': coverage(before),
        'cover after': coverage(after),
        counts: Object.entries(res.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      });
      stages.push({
        clip: clip.name,
        mode,
        'load avg before/after': `${load.toFixed(1)}/${os.loadavg()[0]!.toFixed(1)}`,
        seconds: res.seconds,
        fps: res.frames / res.seconds,
        ...res.stageSeconds,
      });
      if (outDir) {
        fs.mkdirSync(outDir, { recursive: true });
        for (const [label, mask] of [
          ['before', baseMask],
          [mode, refined],
        ] as const) {
          await ffmpeg([
            '-v',
            'error',
            '-y',
            '-i',
            clip.video,
            '-i',
            mask,
            '-filter_complex',
            '[0:v]format=rgba[v];[v][1:v]alphamerge[fg];' +
              `nullsrc=s=${info.width}x${info.height},format=gray,` +
              "geq=lum='if(mod(floor(X/16)+floor(Y/16),2),200,90)'," +
              'format=rgba[board];[board][fg]overlay=shortest=1,' +
              "select='not(mod(n\\," +
              `${Math.max(1, Math.floor(res.frames / 4))}))'`,
            '-fps_mode',
            'passthrough',
            path.join(outDir, `${clip.name}-${label}-%02d.png`),
          ]);
        }
      }
    }
    if (seconds.text && seconds.points)
      ratios.push({ clip: clip.name, 'points ÷ text (wall)': seconds.points / seconds.text });
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(
  `\nRefinement quality (${os.cpus().length} cores, ${new Date().toISOString()}):\n${table(rows)}`,
);
console.log(`\nRefinement wall seconds per stage:\n${table(stages)}`);
console.log(`\nClick path against the text path, same base mask, same run:\n${table(ratios)}`);
console.log(
  `\nPeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
