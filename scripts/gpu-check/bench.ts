/**
 * The GPU check's bench (docs/operations.md, "Checking a GPU server"), bundled by pack.sh and
 * run by remote.sh on the GPU machine, where there is no ffmpeg: frames come decoded from the
 * packed JPEGs, so the frames/s here are the engine's alone (model, flow, fusion, edges),
 * without the decode and FFV1 encode of a real job. Each device runs in the same process, one
 * after the other for each row, so the rows compare.
 *
 *   node bench.mjs --data <dir> [--devices webgpu,cpu] [--configs service-light,…]
 *                  [--resolutions 480,720,1080] [--frames 30] [--quality-frames 0 (all)]
 *                  [--budget-s 390] [--json out.json]
 *
 * Speed: the first --frames frames of dance-twirl scaled to each height. Quality: J (mean IoU at
 * alpha ≥ 0.5) on each DAVIS sequence in --data. A device that does not answer is reported with
 * its reason and left out. Rows not started within --budget-s are listed as skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RgbaFrame } from '../../engine/matte/image';
import { createVideoMatter, workSize } from '../../engine/video-matter';
import { describeChoice, type InferenceDevice } from '../../lib/inference/device';
import { createOrtNodeRuntime } from '../../lib/inference/ort-node-runtime';
import type { ServedRuntime } from '../../lib/inference/runtime-rpc';
import { keepingSessions } from '../../lib/inference/server-runtime';
import { benchConfigs, type BenchConfig } from '../lib-bench/configs';
import { parseArgs, table } from '../lib-bench/frames';
import { iou } from '../lib-bench/metrics';
import { readSequence, resizeRgba, type Sequence } from './frames';

const args = parseArgs(process.argv.slice(2));
const data = path.resolve(args.get('data') ?? 'data');
const devices = (args.get('devices') ?? 'webgpu,cpu').split(',') as InferenceDevice[];
const configs = benchConfigs(
  (
    args.get('configs') ??
    'service-light,service-human,service-human@gpu,service-original,service-pro'
  ).split(','),
  args,
);
const resolutions = (args.get('resolutions') ?? '480,720,1080').split(',').map(Number);
const speedFrames = Number(args.get('frames') ?? 30);
const qualityFrames = Number(args.get('quality-frames') ?? 0) || Infinity;
const budgetS = Number(args.get('budget-s') ?? 390);
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;

interface Device {
  name: InferenceDevice;
  runtime: ServedRuntime;
}

/** The devices that answer; the others are said with their reason. */
async function openDevices(): Promise<Device[]> {
  const open: Device[] = [];
  for (const name of devices) {
    const runtime = keepingSessions(createOrtNodeRuntime({ device: name }));
    try {
      console.log(`[bench] ${name}: ${describeChoice(await runtime.device())}`);
      open.push({ name, runtime });
    } catch (e) {
      console.log(`[bench] ${name} refused: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return open;
}

/** Runs one config over frames; the alphas, frames/s, and keys the model ran on. */
async function matte(device: Device, cfg: BenchConfig, frames: RgbaFrame[]) {
  const { width, height } = frames[0]!;
  const [ww, wh] = workSize(cfg.tier, width, height);
  const scaled = frames.map((f) => resizeRgba(f, ww, wh));
  const matter = await createVideoMatter({
    runtime: device.runtime,
    manifest: cfg.manifest,
    tier: cfg.tier,
    threshold: cfg.threshold,
  });
  const t = performance.now();
  const alphas: Uint8Array[] = [];
  for (let i = 0; i < frames.length; i++)
    alphas.push(...(await matter.push(frames[i]!, scaled[i])));
  alphas.push(...(await matter.flush()));
  const seconds = (performance.now() - t) / 1000;
  await matter.release();
  return { alphas, fps: frames.length / seconds, keys: matter.stats.inferences };
}

const WARM_FRAMES = 10;

type Row = Record<string, string | number>;
const speedRows: Row[] = [];
const qualityRows: Row[] = [];
const firstRuns: Row[] = [];
const skipped: string[] = [];

/**
 * Each config's first WARM_FRAMES frames on each device: sessions start, GPU shaders compile for
 * each shape (keyframes run up to 4 to a batch on a GPU, so several batch sizes). Timed, then
 * left out of the rows.
 */
async function warmUp(open: Device[], frames: RgbaFrame[]) {
  for (const cfg of configs) {
    const row: Row = { config: cfg.name };
    for (const d of open) {
      const t = performance.now();
      await matte(d, cfg, frames.slice(0, WARM_FRAMES));
      row[`${d.name}_s`] = (performance.now() - t) / 1000;
    }
    firstRuns.push(row);
    console.log(`[bench] first run ${JSON.stringify(row)}`);
  }
}

async function speed(open: Device[], clip: Sequence) {
  const source = clip.frames.slice(0, speedFrames);
  for (const h of resolutions) {
    const w = Math.round((source[0]!.width * h) / source[0]!.height / 2) * 2;
    const frames = source.map((f) => resizeRgba(f, w, h));
    if (h === resolutions[0]) await warmUp(open, frames);
    for (const cfg of configs) {
      if (elapsed() > budgetS) {
        skipped.push(`speed ${cfg.name} ${h}p`);
        continue;
      }
      const row: Row = { config: cfg.name, height: h, frames: frames.length };
      for (const d of open) {
        const r = await matte(d, cfg, frames);
        row[`${d.name}_fps`] = r.fps;
        row[`${d.name}_keys`] = r.keys;
      }
      speedRows.push(row);
      console.log(`[bench] speed ${JSON.stringify(row)}`);
    }
  }
}

async function quality(open: Device[], sequences: Sequence[]) {
  for (const seq of sequences) {
    for (const cfg of configs) {
      if (elapsed() > budgetS) {
        skipped.push(`J ${cfg.name} ${seq.name}`);
        continue;
      }
      const row: Row = { config: cfg.name, sequence: seq.name, frames: seq.frames.length };
      for (const d of open) {
        const r = await matte(d, cfg, seq.frames);
        row[`${d.name}_J`] =
          r.alphas.reduce((s, a, i) => s + iou(a, seq.masks[i]!), 0) / r.alphas.length;
        row[`${d.name}_fps`] = r.fps;
      }
      qualityRows.push(row);
      console.log(`[bench] J ${JSON.stringify(row)}`);
    }
  }
}

const open = await openDevices();
if (!open.length) {
  console.log('[bench] no device answered');
  process.exit(1);
}
const sequences = fs
  .readdirSync(data)
  .filter((d) => fs.existsSync(path.join(data, d, 'info.json')))
  .sort()
  .map((d) => readSequence(path.join(data, d), qualityFrames));
const clip = sequences.find((s) => s.name === 'dance-twirl') ?? sequences[0]!;
await speed(open, clip);
await quality(open, sequences);

console.log(
  `\nFirst runs (${WARM_FRAMES} frames at ${resolutions[0]}p: ` +
    "session start, shader compilation; a model's session starts " +
    `with the first config that uses it), s:\n${table(firstRuns)}`,
);
console.log(`\nEngine frames/s (no decode or encode):\n${table(speedRows)}`);
console.log(`\nJ on DAVIS:\n${table(qualityRows)}`);
if (skipped.length) console.log(`\nSkipped past the ${budgetS} s budget: ${skipped.join(', ')}`);
console.log(`\n[bench] done in ${elapsed().toFixed(0)} s`);
if (args.has('json'))
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify(
      { date: new Date().toISOString(), firstRuns, speedRows, qualityRows, skipped },
      null,
      2,
    ),
  );
process.exit(0);
