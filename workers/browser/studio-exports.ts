/**
 * Further files from a studio run, made in this tab from its cut-out (VP9 with alpha), as the
 * server makes exports from an original and a mask: the same render plans
 * (engine/media/render-plan.ts, the cut-out as a source that carries its own matte), the same
 * format modules and the same sticker ladder (`fitSticker`), run by ffmpeg.wasm. What ffmpeg.wasm
 * cannot encode (VP9) goes through WebCodecs (mediabunny). Nothing leaves the browser.
 */
import { zipSync, type Zippable } from 'fflate';
import {
  BufferTarget,
  Output,
  Quality,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
} from 'mediabunny';
import { outputFormat, type ExportFormat, type FramesJob } from '../../engine/formats';
import { quantizedApng } from '../../engine/media/apng-palette';
import { parseRational } from '../../engine/media/geometry';
import { planBatch, type RenderPlan, type ZipPlan } from '../../engine/media/render-plan';
import {
  fitSticker,
  StickerBudgetError,
  type AttemptResult,
} from '../../engine/media/sticker-plan';
import type { MediaInfo } from '../../engine/media/types';
import { FfmpegWasm } from './ffmpeg-wasm';

/** A studio run's cut-out: the source of every further file, like the server's original + mask. */
export interface StudioCutout {
  /** VP9 with alpha in WebM (and the source's sound as Opus, when it has any). */
  file: Blob;
  width: number;
  height: number;
  fpsRational: string;
  frames: number;
  hasAudio: boolean;
}

export interface MadeFile {
  format: ExportFormat;
  blob: Blob;
  /** Milliseconds of this file's own work (its master's share of a shared decode not included). */
  ms: number;
  /** Stickers: what the ladder did. */
  sticker?: { budgetBytes: number; fps: number; attempts: AttemptResult[] };
}

export type MadeResult =
  { ok: true; file: MadeFile } | { ok: false; format: ExportFormat; error: string };

export interface MakeOptions {
  signal?: AbortSignal;
  /** Called as each file is done (or has failed), in the order asked. */
  onFile?: (r: MadeResult) => void;
  /** Milliseconds of the shared pass that decoded the cut-out once for every file. */
  onShared?: (ms: number) => void;
}

const IN = '/in/cutout.webm';

/** The cut-out as the render plans see a probed source. */
function cutoutInfo(c: StudioCutout): MediaInfo {
  const fps = parseRational(c.fpsRational);
  return {
    demuxer: 'matroska',
    container: 'webm',
    width: c.width,
    height: c.height,
    codedWidth: c.width,
    codedHeight: c.height,
    rotation: 0,
    fps,
    fpsRational: c.fpsRational,
    variableFrameRate: false,
    duration: c.frames / fps,
    frameCount: c.frames,
    videoCodec: 'vp9',
    pixFmt: 'yuva420p',
    hasAudio: c.hasAudio,
    audioCodec: c.hasAudio ? 'opus' : null,
    sizeBytes: c.file.size,
  };
}

const abortError = () => new DOMException('Cancelled', 'AbortError');

/**
 * Makes each format from the cut-out: one ffmpeg.wasm pass decodes it once for every format a
 * single encoder branch makes (stickers' masters included), the rest run on their own; each
 * sticker then tries its ladder until it fits. One format failing does not stop the others.
 */
export async function makeFromCutout(
  cutout: StudioCutout,
  formats: ExportFormat[],
  opts: MakeOptions = {},
): Promise<MadeResult[]> {
  const ff = await FfmpegWasm.load();
  const stop = () => ff.terminate();
  opts.signal?.addEventListener('abort', stop);
  try {
    await ff.mkdirs('/in');
    await ff.write(IN, new Uint8Array(await cutout.file.arrayBuffer()));
    const outputs = formats.map((format, i) => ({
      recipe: { kind: 'transparent' as const, format },
      output: `/out/${i}.${outputFormat(format).extension}`,
      workDir: `/work/${i}`,
    }));
    for (const o of outputs) await ff.mkdirs(o.workDir);
    await ff.mkdirs('/out');
    const batch = planBatch({
      info: cutoutInfo(cutout),
      source: IN,
      mask: null,
      maskFrames: cutout.frames,
      maxPixels: cutout.width * cutout.height,
      runner: 'wasm',
      outputs,
    });
    if (batch.shared) {
      const t = performance.now();
      await ff.run(batch.shared, 'the shared pass');
      opts.onShared?.(performance.now() - t);
    }
    const results: MadeResult[] = [];
    for (const [i, plan] of batch.plans.entries()) {
      if (opts.signal?.aborted) throw abortError();
      const format = formats[i]!;
      const r = await makeOne(ff, plan, outputs[i]!).then(
        (file): MadeResult => ({ ok: true, file }),
        (err: Error): MadeResult => {
          if (opts.signal?.aborted) throw abortError();
          return { ok: false, format, error: err.message };
        },
      );
      await ff.remove(outputs[i]!.workDir);
      await ff.remove(outputs[i]!.output);
      results.push(r);
      opts.onFile?.(r);
    }
    return results;
  } catch (err) {
    throw opts.signal?.aborted ? abortError() : err;
  } finally {
    opts.signal?.removeEventListener('abort', stop);
    stop();
  }
}

async function makeOne(
  ff: FfmpegWasm,
  plan: RenderPlan,
  o: { output: string; workDir: string },
): Promise<MadeFile> {
  const format = plan.format.id as ExportFormat;
  const t = performance.now();
  if (plan.zip?.directory) await ff.mkdirs(plan.zip.directory);
  for (const args of plan.steps) await ff.run(args, plan.format.label);
  if (plan.finish?.kind === 'sticker') {
    const sticker = plan.finish.sticker;
    let bytes: Uint8Array | null = null;
    try {
      const { winner, attempts } = await fitSticker(
        plan.format,
        sticker,
        async (a) => {
          await ff.mkdirs(a.workDir);
          for (const args of a.steps) await ff.run(args, plan.format.label);
          if (a.frames) await runFramesJob(ff, a.frames);
          await ff.remove(a.workDir);
          bytes = await ff.read(sticker.output);
          return bytes.byteLength;
        },
        () => ff.remove(sticker.output),
      );
      return {
        format,
        blob: new Blob([bytes! as Uint8Array<ArrayBuffer>], { type: plan.format.contentType }),
        ms: performance.now() - t,
        sticker: { budgetBytes: sticker.budgetBytes, fps: winner.attempt.fps, attempts },
      };
    } catch (err) {
      throw err instanceof StickerBudgetError ? new Error(err.message) : err;
    }
  }
  if (plan.finish) throw new Error(`${plan.format.label} cannot be made in the browser.`);
  const bytes = plan.zip ? await zipFromPlan(ff, plan.zip) : await ff.read(o.output);
  return {
    format,
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: plan.format.contentType }),
    ms: performance.now() - t,
  };
}

/**
 * A ZIP plan's members read out of ffmpeg.wasm's files; images are stored, the manifest deflated
 * (as on the server).
 */
async function zipFromPlan(ff: FfmpegWasm, plan: ZipPlan): Promise<Uint8Array> {
  const members: Zippable = {};
  const fixed = new Date('2000-01-01T00:00:00Z');
  for (const f of plan.files) members[f.name] = [await ff.read(f.file), { level: 0, mtime: fixed }];
  if (plan.directory)
    for (const name of await ff.files(plan.directory))
      members[name] = [await ff.read(`${plan.directory}/${name}`), { level: 0, mtime: fixed }];
  if (plan.manifest)
    members[plan.manifest.name] = [
      new TextEncoder().encode(JSON.stringify(plan.manifest.json, null, 2) + '\n'),
      { mtime: fixed },
    ];
  return zipSync(members);
}

/**
 * An attempt's last step over the raw RGBA frames its ffmpeg step wrote
 * (engine/formats/sticker.ts).
 */
async function runFramesJob(ff: FfmpegWasm, job: FramesJob): Promise<void> {
  const raw = await ff.read(job.rawFrames);
  await ff.remove(job.rawFrames);
  const file =
    job.encode.kind === 'apng-palette'
      ? quantizedApng(raw, { ...job, colours: job.encode.colours })
      : await vp9AlphaWebm(raw, job, job.encode.bitrate);
  await ff.write(job.output, file);
}

/**
 * VP9 with alpha in WebM through WebCodecs, each stream (colour, alpha) at `bitrate` bits per
 * second.
 */
async function vp9AlphaWebm(raw: Uint8Array, job: FramesJob, bitrate: number): Promise<Uint8Array> {
  const fps = parseRational(job.fpsRational);
  const target = new BufferTarget();
  const output = new Output({ format: new WebMOutputFormat(), target });
  const source = new VideoSampleSource({
    codec: 'vp9',
    quality: new Quality({ bitrate }),
    alpha: 'keep',
    keyFrameInterval: 2,
  });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  const frameBytes = job.width * job.height * 4;
  const count = Math.min(job.frames, Math.floor(raw.byteLength / frameBytes));
  for (let k = 0; k < count; k++) {
    const sample = new VideoSample(raw.subarray(k * frameBytes, (k + 1) * frameBytes), {
      format: 'RGBA',
      codedWidth: job.width,
      codedHeight: job.height,
      timestamp: k / fps,
      duration: 1 / fps,
    });
    try {
      await source.add(sample);
    } finally {
      sample.close();
    }
  }
  source.close();
  await output.finalize();
  return new Uint8Array(target.buffer!);
}
