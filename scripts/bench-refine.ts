/**
 * `npm run bench:refine`: refinement by text prompt on real clips. Each clip is segmented with
 * a base model, then refined (`add` or `subtract` a concept) with a text-prompt model, as the
 * API does. Reported per clip: DAVIS J of the base mask and of the refined one against the
 * clip's ground truth (where it has one), the refinement's wall time per stage, frames per
 * second, and the process's peak RSS. Refinement frames go to --out as PNGs over a
 * checkerboard for looking at. Host speed moves between hours: compare stages within a run.
 *
 *   npx tsx scripts/bench-refine.ts [--clips car-shadow,blackswan,dog] [--model service-original] [--out dir] [--frames N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveApiModel, type ApiModel } from '../engine/api-models';
import { parseConcepts } from '../engine/prompts/concepts';
import type { RefineOp } from '../engine/prompts/refine';
import { ffmpeg } from '../lib/media/ffmpeg';
import { probeVideo } from '../lib/media/probe';
import { refineVideo } from '../lib/refine/refine-video';
import { segmentVideo } from '../lib/segment/segment-video';
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
}

const SHARED = path.resolve(import.meta.dirname, '../../shared/testdata');
const CLIPS: Clip[] = [
  { name: 'car-shadow', video: `${SHARED}/davis/car-shadow/video.mp4`, truth: `${SHARED}/davis/car-shadow/masks/%05d.png`, base: 'service-human', op: 'add', prompt: 'car' },
  { name: 'blackswan', video: `${SHARED}/davis/blackswan/video.mp4`, truth: `${SHARED}/davis/blackswan/masks/%05d.png`, base: 'service-original', op: 'subtract', prompt: 'bird' },
  { name: 'dog', video: `${SHARED}/videos/sam2_01_dog_and_woman_1280x720.mp4`, truth: null, base: 'service-human', op: 'add', prompt: 'dog' },
];

const args = parseArgs(process.argv.slice(2));
const wanted = (args.get('clips') ?? CLIPS.map((c) => c.name).join(',')).split(',');
const model = resolveApiModel(args.get('model') ?? 'service-original');
if (!model) throw new Error('unknown --model');
const outDir = args.get('out') ? path.resolve(args.get('out')!) : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-refine-'));
const rows: Record<string, string | number>[] = [];
const stages: Record<string, string | number>[] = [];

const meanJ = (pred: Uint8Array[], gt: Uint8Array[]) => pred.reduce((s, p, i) => s + iou(p, gt[i]!), 0) / pred.length;
/** Share of pixels ≥ 128, averaged over frames. */
const coverage = (frames: Uint8Array[]) => frames.reduce((s, f) => s + f.reduce((n, v) => n + (v >= 128 ? 1 : 0), 0) / f.length, 0) / frames.length;

try {
  for (const clip of CLIPS.filter((c) => wanted.includes(c.name))) {
    const info = await probeVideo(clip.video);
    const baseMask = path.join(work, `${clip.name}-base.mkv`);
    const refined = path.join(work, `${clip.name}-refined.mkv`);
    await segmentVideo({ input: clip.video, info, maskOut: baseMask, model: clip.base });
    const res = await refineVideo({ input: clip.video, info, maskIn: baseMask, maskOut: refined, model, op: clip.op, concepts: parseConcepts(clip.prompt), edgeCleanup: null });
    const read = (f: string) => readGrayFrames(['-i', f], info.width, info.height);
    const [before, after] = [await read(baseMask), await read(refined)];
    const gt = clip.truth ? await readGrayFrames(['-i', clip.truth], info.width, info.height) : null;
    rows.push({
      clip: clip.name,
      size: `${info.width}x${info.height}`,
      frames: res.frames,
      refine: `${clip.base} then ${clip.op} "${clip.prompt}" (${model})`,
      'J before': gt ? meanJ(before, gt) : 'n/a',
      'J after': gt ? meanJ(after, gt) : 'n/a',
      'cover before': coverage(before),
      'cover after': coverage(after),
      objects: res.concepts.objects,
      dropped: res.concepts.dropped,
      keys: res.concepts.keys,
    });
    stages.push({ clip: clip.name, seconds: res.seconds, fps: res.frames / res.seconds, ...Object.fromEntries(Object.entries(res.stageSeconds).map(([k, v]) => [k, v])) });
    if (outDir) {
      fs.mkdirSync(outDir, { recursive: true });
      for (const [label, mask] of [['before', baseMask], ['after', refined]] as const) {
        await ffmpeg([
          '-v', 'error', '-y', '-i', clip.video, '-i', mask,
          '-filter_complex',
          `[0:v]format=rgba[v];[v][1:v]alphamerge[fg];nullsrc=s=${info.width}x${info.height},format=gray,geq=lum='if(mod(floor(X/16)+floor(Y/16),2),200,90)',format=rgba[board];[board][fg]overlay=shortest=1,select='not(mod(n\\,${Math.max(1, Math.floor(res.frames / 4))}))'`,
          '-fps_mode', 'passthrough', path.join(outDir, `${clip.name}-${label}-%02d.png`),
        ]);
      }
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`\nRefinement quality (${os.cpus().length} cores, ${new Date().toISOString()}):\n${table(rows)}`);
console.log(`\nRefinement wall seconds per stage:\n${table(stages)}`);
console.log(`\nPeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
