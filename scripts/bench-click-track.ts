/**
 * `npx tsx scripts/bench-click-track.ts`: how best to follow a clicked object from key to key
 * with SAM (engine/prompts/click-track.ts). On DAVIS clips, points are clicked on the middle
 * frame (from the ground truth: its centre, and with --clicks 3 also points a fifth from its
 * top and bottom), SAM answers them, and every `--interval`-th frame is then followed from the
 * one before it (backwards to the first frame, forwards to the last) with each way of prompting
 * SAM. Reported: mean J of the keys' SAM answers against the ground truth (no propagation
 * between keys, no fusion). The product uses "flow box + point" (clickTracker).
 *
 *   npx tsx scripts/bench-click-track.ts [--clips car-shadow,blackswan,dance-twirl] [--clicks 1|3]
 *   [--interval 8]
 */
import os from 'node:os';
import path from 'node:path';
import { denseFlow, warpBack, type FlowField } from '../engine/matte/flow';
import { fitLongSide, lumaOf, resizeMap, type FloatMap } from '../engine/matte/image';
import { innermostPoint } from '../engine/prompts/click-track';
import { boxOf, type Box } from '../engine/prompts/detector';
import { SAM_DECODER, SAM_ENCODER } from '../engine/prompts/models';
import {
  SAM_IO,
  samDecoderFeeds,
  samEmbedding,
  samMask,
  type SamPrompt,
} from '../engine/prompts/sam';
import type { TensorData } from '../engine/runtime';
import { createLocalOrtNodeRuntime } from '../lib/inference/ort-node-local';
import { parseArgs, readGrayFrames, table } from './lib-bench/frames';
import { ffmpeg } from '../lib/media/ffmpeg';

const [W, H] = [854, 480];
const DAVIS = path.resolve(import.meta.dirname, '../../shared/testdata/davis');
const args = parseArgs(process.argv.slice(2));
const clips = (args.get('clips') ?? 'car-shadow,blackswan,dance-twirl').split(',');
const clicks = Number(args.get('clicks') ?? 3);
const interval = Number(args.get('interval') ?? 8);

const runtime = createLocalOrtNodeRuntime({
  threads: os.cpus().length,
  device: 'cpu',
  cudaDevice: 0,
  batch: 1,
});
const [encoder, decoder] = await Promise.all([
  runtime.load(SAM_ENCODER),
  runtime.load(SAM_DECODER),
]);

interface Key {
  low: TensorData;
  mask: FloatMap;
}
type Step = (f: number, from: number, prev: Key) => Promise<Key>;

const rows: Record<string, string | number>[] = [];
for (const clip of clips) {
  const { stdout } = await ffmpeg(
    [
      '-v',
      'error',
      '-i',
      path.join(DAVIS, clip, 'video.mp4'),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { timeoutMs: 120_000 },
  );
  const n = Math.floor(stdout.length / (W * H * 3));
  const planes = (f: number) =>
    [0, 1, 2].map((c) =>
      Float32Array.from({ length: W * H }, (_, i) => stdout[(f * W * H + i) * 3 + c]!),
    );
  const truth = await readGrayFrames(['-i', path.join(DAVIS, clip, 'masks/%05d.png')], W, H);
  const J = (m: FloatMap, f: number) => {
    let inter = 0;
    let union = 0;
    for (let i = 0; i < m.data.length; i++) {
      const a = m.data[i]! >= 0.5;
      const b = truth[f]![i]! >= 128;
      if (a && b) inter++;
      if (a || b) union++;
    }
    return union ? inter / union : 1;
  };
  const embeddings = new Map<number, TensorData>();
  const ask = async (f: number, prompt: SamPrompt, previous?: TensorData): Promise<Key> => {
    let e = embeddings.get(f);
    if (!e) {
      e = await samEmbedding(encoder, planes(f), W, H);
      embeddings.set(f, e);
    }
    const res = await decoder.run(
      {
        image_embeddings: { data: e.data.slice(), dims: e.dims },
        ...samDecoderFeeds(prompt, W, H, previous),
      },
      SAM_IO.decoderOutputs,
    );
    return { low: res.low_res_masks!, mask: samMask(res.low_res_masks!, W, H) };
  };
  const [sw, sh] = fitLongSide(W, H, 256);
  const small = (f: number) => resizeMap(lumaOf(planes(f), W, H), sw, sh);
  const flowTo = (f: number, from: number) => denseFlow(small(f), small(from));
  /**
   * The previous answer's low-resolution logits pulled onto this frame (they cover the padded
   * square; the picture is its top-left part).
   */
  const carryLow = (low: TensorData, flow: FlowField): TensorData => {
    const s = 1024 / Math.max(W, H);
    const [cw, ch] = [Math.round((W * s) / 4), Math.round((H * s) / 4)];
    const crop = new Float32Array(cw * ch);
    for (let y = 0; y < ch; y++)
      for (let x = 0; x < cw; x++) crop[y * cw + x] = low.data[y * 256 + x]!;
    const moved = warpBack({ data: crop, width: cw, height: ch }, flow);
    const out = new Float32Array(256 * 256).fill(-20);
    for (let y = 0; y < ch; y++)
      for (let x = 0; x < cw; x++) out[y * 256 + x] = moved.data[y * cw + x]!;
    return { data: out, dims: [1, 1, 256, 256] };
  };
  const inner = (m: FloatMap) => {
    const p = innermostPoint(resizeMap(m, sw, sh))!;
    return { x: (p.x * W) / sw, y: (p.y * H) / sh, include: true };
  };
  const ways: Record<string, Step> = {
    'box of the last answer': (f, _from, prev) => ask(f, { box: boxOf(prev.mask)! }),
    'box + last low-res mask': (f, _from, prev) => ask(f, { box: boxOf(prev.mask)! }, prev.low),
    'flow box': (f, from, prev) => ask(f, { box: boxOf(warpBack(prev.mask, flowTo(f, from)))! }),
    'flow box + low-res mask': (f, from, prev) => {
      const flow = flowTo(f, from);
      return ask(f, { box: boxOf(warpBack(prev.mask, flow))! }, carryLow(prev.low, flow));
    },
    'flow box + point (product)': (f, from, prev) => {
      const carried = warpBack(prev.mask, flowTo(f, from));
      return ask(f, { box: boxOf(carried)!, points: [inner(carried)] });
    },
    'flow box + point + low-res mask': (f, from, prev) => {
      const flow = flowTo(f, from);
      const carried = warpBack(prev.mask, flow);
      return ask(f, { box: boxOf(carried)!, points: [inner(carried)] }, carryLow(prev.low, flow));
    },
  };

  // The clicks: on the ground truth of the middle frame, snapped to its nearest object pixel.
  const click = Math.floor(n / 2);
  const g = truth[click]!;
  const gBox = boxOf({ data: Float32Array.from(g, (v) => v / 255), width: W, height: H }) as Box;
  const snap = (x0: number, y0: number) => {
    let best = Infinity;
    let at = { x: x0, y: y0, include: true };
    for (let i = 0; i < g.length; i++) {
      if (g[i]! < 128) continue;
      const d = ((i % W) - x0) ** 2 + (Math.floor(i / W) - y0) ** 2;
      if (d < best) [best, at] = [d, { x: i % W, y: Math.floor(i / W), include: true }];
    }
    return at;
  };
  const cx = (gBox[0] + gBox[2]) / 2;
  const centre = snap(cx, (gBox[1] + gBox[3]) / 2);
  const points =
    clicks === 1
      ? [centre]
      : [
          snap(cx, gBox[1] + 0.2 * (gBox[3] - gBox[1])),
          centre,
          snap(cx, gBox[1] + 0.8 * (gBox[3] - gBox[1])),
        ];
  const first = await ask(click, { points });
  const keys = Array.from({ length: Math.ceil(n / interval) }, (_, k) => k * interval);
  for (const [way, step] of Object.entries(ways)) {
    let sum = 0;
    let count = 0;
    for (const order of [keys.filter((f) => f < click).reverse(), keys.filter((f) => f > click)]) {
      let prev = first;
      let from = click;
      for (const f of order) {
        if (!boxOf(prev.mask)) break;
        prev = await step(f, from, prev);
        from = f;
        sum += J(prev.mask, f);
        count++;
      }
    }
    rows.push({
      clip,
      clicks: points.length,
      'clicked frame J': J(first.mask, click),
      way,
      'mean J of the other keys': count ? sum / count : 'n/a',
      keys: count,
    });
  }
}
console.log(
  `\nFollowing a clicked object, every ${interval}th frame ` +
    `(${os.cpus().length} cores, load ` +
    `${os.loadavg()[0]!.toFixed(1)}):\n${table(rows)}`,
);
