import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { hevcLayerCounts } from '../../engine/media/capabilities';
import { readApng, readGifHeader, readWebp, stillWebp, type AnimationInfo } from '../../engine/media/containers';
import type { OutputMetadata, OutputPromise } from '../../engine/media/output-metadata';
import type { RenderPlan } from '../../engine/media/render-plan';
import { ffmpeg, MediaError } from './ffmpeg';
import { probeFile, type ProbedFile } from './frames';
import { listZip, readZipEntry } from './zip';

/**
 * Checks a rendered file against what its plan promised before anything serves it: codec,
 * size, frame rate, frame count and duration (within one frame), audio, and — decoding a few
 * frames with a decoder that really reads alpha — that the alpha or matte is there, not
 * constant, and the right way round. Returns the served metadata; throws MediaError otherwise.
 */
export async function validateOutput(o: {
  file: string;
  plan: RenderPlan;
  mask: string;
  signal?: AbortSignal;
}): Promise<OutputMetadata> {
  const v = new Validator(o.file, o.plan, o.mask, o.signal);
  const facts = await v.run();
  const stat = await fs.stat(o.file);
  return {
    validated: true,
    format: o.plan.promise.codec,
    profile: o.plan.promise.profile,
    container: o.plan.promise.container,
    ...facts,
    alpha: o.plan.promise.alpha,
    has_alpha: o.plan.promise.alpha !== 'none',
    alpha_inverted: o.plan.promise.inverted,
    bytes: stat.size,
    sha256: await sha256(o.file),
  };
}

type Facts = Pick<
  OutputMetadata,
  'width' | 'height' | 'duration' | 'fps' | 'frame_count' | 'pixel_format' | 'loop' | 'loop_count' | 'alpha_range' | 'has_audio'
>;

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Per-frame statistics of an 8-bit plane (alpha or matte). */
export interface PlaneStats {
  min: number;
  max: number;
  mean: number;
  /** Pixels that are neither 0 nor 255. */
  partial: number;
}

export function planeStats(plane: Uint8Array): PlaneStats {
  let min = 255;
  let max = 0;
  let sum = 0;
  let partial = 0;
  for (const v of plane) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    if (v !== 0 && v !== 255) partial++;
  }
  return { min, max, mean: plane.length ? sum / plane.length : 0, partial };
}

/** Frame indices to decode: early, middle and late. */
export function sampleIndices(frames: number): number[] {
  return [...new Set([Math.floor(frames * 0.1), Math.floor(frames * 0.5), Math.max(0, frames - 2)])].sort((a, b) => a - b);
}

/** Beyond this many frames, sampled video frames are reached by seeking (see decodePlanes). */
const SEEK_AFTER_FRAMES = 600;

/** Decoded planes are sampled at most this wide (nearest neighbour keeps values exact). */
const SAMPLE_WIDTH = 320;

const fail = (what: string) => {
  throw new MediaError(`The output failed validation: ${what}`);
};

class Validator {
  private readonly p: OutputPromise;
  private readonly frameTolerance: number;
  constructor(
    private readonly file: string,
    private readonly plan: RenderPlan,
    private readonly mask: string,
    private readonly signal?: AbortSignal,
  ) {
    this.p = plan.promise;
    this.frameTolerance = 1 / plan.promise.fps + 1e-3;
  }

  async run(): Promise<Facts> {
    switch (this.p.profile) {
      case 'video-alpha':
      case 'video-alpha-layer':
      case 'video-stacked-alpha':
      case 'video-matte':
      case 'video-opaque':
        return this.video();
      case 'bundle-color-alpha':
        return this.bundle();
      case 'image-sequence-alpha':
        return this.sequence();
      case 'animation-alpha':
      case 'animation-binary-alpha':
        return this.animation();
    }
  }

  // ── videos ────────────────────────────────────────────────────────────────────────────────

  private demuxer(container: string): string {
    return container === 'webm' ? 'matroska' : container === 'mp4' ? 'mov' : container;
  }

  private async probe(file: string, container: string): Promise<ProbedFile> {
    try {
      return await probeFile(file, this.demuxer(container), this.signal);
    } catch {
      return fail(`the ${container} file cannot be read back.`);
    }
  }

  private checkVideoStream(probed: ProbedFile, codec: string, height: number, label = 'video'): NonNullable<ProbedFile['video']> {
    const v = probed.video;
    if (!v) return fail(`the ${label} has no video stream.`);
    if (v.codec !== codec) fail(`the ${label} is ${v.codec}, expected ${codec}.`);
    if (v.width !== this.p.width || v.height !== height) {
      fail(`the ${label} is ${v.width}x${v.height}, expected ${this.p.width}x${height}.`);
    }
    if (Math.abs(v.fps - this.p.fps) > this.p.fps * 0.005) fail(`the ${label} runs at ${v.fps.toFixed(3)} fps, expected ${this.p.fps.toFixed(3)}.`);
    if (Math.abs(v.frames - this.p.frames) > 1) fail(`the ${label} has ${v.frames} frames, expected ${this.p.frames}.`);
    const duration = v.duration ?? probed.formatDuration ?? v.frames / v.fps;
    if (Math.abs(duration - this.p.duration) > this.frameTolerance) {
      fail(`the ${label} lasts ${duration.toFixed(3)} s, expected ${this.p.duration.toFixed(3)} s (within one frame).`);
    }
    return v;
  }

  private checkAudio(probed: ProbedFile, label = 'video') {
    if (this.p.hasAudio && !probed.audio) fail(`the ${label} lost the source's audio.`);
    if (!this.p.hasAudio && probed.audio) fail(`the ${label} has an unexpected audio stream.`);
  }

  private async video(): Promise<Facts> {
    const p = this.p;
    const stacked = p.profile === 'video-stacked-alpha';
    const probed = await this.probe(this.file, p.container);
    const v = this.checkVideoStream(probed, p.codec, stacked ? p.height * 2 : p.height);
    this.checkAudio(probed);
    let range: [number, number] | null = null;
    if (p.profile === 'video-alpha') {
      if (p.codec === 'vp9' && v.tags.alpha_mode !== '1') fail('the WebM does not declare alpha (alpha_mode=1).');
      if (p.codec === 'prores' && !v.pixFmt.startsWith('yuva')) fail(`the ProRes file is ${v.pixFmt}, without alpha.`);
      // ffmpeg's native VP8/VP9 decoders drop alpha: only libvpx reads it.
      const decoder = p.codec === 'vp9' ? ['-c:v', 'libvpx-vp9'] : [];
      range = await this.matteCheck(decoder, this.file, p.container, 'alphaextract');
    } else if (p.profile === 'video-alpha-layer') {
      await this.hevcAlphaLayer(v.frames);
    } else if (stacked) {
      range = await this.matteCheck([], this.file, p.container, 'crop=iw:ih/2:0:ih/2');
    } else if (p.profile === 'video-matte') {
      range = await this.matteCheck([], this.file, p.container, 'null');
    } else if (v.pixFmt.includes('a') && /^(yuva|rgba|bgra|argb|abgr|gbrap)/.test(v.pixFmt)) {
      fail(`an opaque output came out as ${v.pixFmt}.`);
    }
    return videoFacts(v, probed.formatDuration, range, Boolean(probed.audio));
  }

  /** HEVC alpha travels in a second layer; FFmpeg before 8 cannot decode it, so count its NAL units. */
  private async hevcAlphaLayer(frames: number) {
    const { stdout } = await ffmpeg(
      ['-v', 'error', '-f', 'mov', '-protocol_whitelist', 'file', '-i', this.file, '-map', '0:v:0', '-c:v', 'copy', '-bsf:v', 'hevc_mp4toannexb', '-f', 'hevc', 'pipe:1'],
      { timeoutMs: 300_000, signal: this.signal },
    );
    const layers = hevcLayerCounts(stdout);
    const alphaNals = [...layers.entries()].filter(([layer]) => layer > 0).reduce((n, [, c]) => n + c, 0);
    if (alphaNals < frames) fail(`the HEVC file carries an alpha layer for ${alphaNals} of ${frames} frames.`);
  }

  /**
   * Decodes sampled frames of the alpha/matte plane (`planeFilter` turns a decoded frame into
   * that plane) and checks it: not constant unless the mask is, and — when the output is not
   * cropped, retimed or reversed — close to the mask (inverted when promised).
   */
  private async matteCheck(decoder: string[], file: string, container: string, planeFilter: string): Promise<[number, number]> {
    const indices = sampleIndices(this.p.frames);
    let planes: Uint8Array[];
    try {
      planes = await decodePlanes(
        [...decoder, '-f', this.demuxer(container), '-protocol_whitelist', 'file', '-i', file],
        planeFilter,
        indices,
        this.p.width,
        this.p.height,
        this.signal,
        this.p.fps,
        this.p.codec === 'prores',
      );
    } catch (e) {
      if (e instanceof MediaError) throw e;
      return fail('its alpha could not be decoded (no alpha plane).');
    }
    return this.judgePlanes(planes.map(planeStats), indices);
  }

  private async judgePlanes(stats: PlaneStats[], indices: number[] | null): Promise<[number, number]> {
    if (stats.length === 0) fail('no frames could be decoded.');
    const min = Math.min(...stats.map((s) => s.min));
    const max = Math.max(...stats.map((s) => s.max));
    const expected = indices && this.comparable() ? await this.maskMeans(indices) : null;
    if (min === max) {
      const maskRange = expected ?? (await this.maskMeans(sampleIndices(this.p.frames)));
      const maskConstant = maskRange.every((m) => Math.abs(m - min) < 1);
      if (!maskConstant) fail(`its alpha is constant (${min}) although the mask is not: the alpha was lost.`);
    }
    if (this.p.alpha === 'binary' && stats.some((s) => s.partial > 0)) fail('a GIF frame has partial transparency.');
    if (expected) {
      const tolerance = this.p.alpha === 'binary' ? 16 : 8;
      stats.forEach((s, i) => {
        const want = expected[i]!;
        if (Math.abs(s.mean - want) > tolerance) {
          fail(
            `its alpha does not match the mask (frame ${indices![i]}: mean ${s.mean.toFixed(1)}, mask ${want.toFixed(1)})` +
              (Math.abs(255 - s.mean - want) <= tolerance ? ': it is inverted.' : '.'),
          );
        }
      });
    }
    return [min, max];
  }

  /** The output's frames are the mask's frames (no crop, retiming or reverse), so means compare. */
  private comparable(): boolean {
    const g = this.plan.geometry;
    return !g.crop && !g.retimed && !g.reverse;
  }

  /** Mean of the mask (inverted when the output promises so) at the given normalized frames. */
  private async maskMeans(indices: number[]): Promise<number[]> {
    const planes = await decodePlanes(
      ['-f', 'matroska', '-protocol_whitelist', 'file', '-i', this.mask],
      'null',
      indices,
      this.p.width,
      this.p.height,
      this.signal,
      this.plan.geometry.fps,
    );
    return planes.map((pl) => {
      const m = planeStats(pl).mean;
      return this.p.inverted ? 255 - m : m;
    });
  }

  // ── bundles ───────────────────────────────────────────────────────────────────────────────

  private async bundle(): Promise<Facts> {
    const members = this.plan.members;
    if (!members) return fail('the bundle has no members.');
    const entries = await this.zipEntries();
    const expectedNames = ['color.mp4', 'alpha.mp4', ...(members.audio ? ['audio.m4a'] : []), 'manifest.json'];
    const names = entries.map((e) => e.name).sort();
    if (names.join() !== [...expectedNames].sort().join()) fail(`the bundle holds ${names.join(', ')}; expected ${expectedNames.join(', ')}.`);
    if (entries.some((e) => e.size === 0)) fail('the bundle has an empty member.');
    const manifest = await readZipEntry(this.file, 'manifest.json');
    try {
      const json = JSON.parse(manifest?.toString() ?? '') as { kind?: string };
      if (json.kind !== 'keyout.pro_bundle') fail('the bundle manifest is not a Keyout manifest.');
    } catch (e) {
      if (e instanceof MediaError) throw e;
      fail('the bundle manifest is not JSON.');
    }
    const color = await this.probe(members.color, 'mp4');
    const v = this.checkVideoStream(color, 'h264', this.p.height, 'color.mp4');
    if (color.audio) fail('color.mp4 should carry no audio (audio.m4a does).');
    const alpha = await this.probe(members.alpha, 'mp4');
    this.checkVideoStream(alpha, 'h264', this.p.height, 'alpha.mp4');
    const range = await this.matteCheck([], members.alpha, 'mp4', 'null');
    if (members.audio) {
      const audio = await this.probe(members.audio, 'mp4');
      if (audio.audio?.codec !== 'aac') fail('audio.m4a has no AAC audio.');
    } else if (this.p.hasAudio) {
      fail('the bundle lost the source audio.');
    }
    return videoFacts(v, color.formatDuration, range, Boolean(members.audio));
  }

  private async zipEntries() {
    try {
      return await listZip(this.file);
    } catch {
      return fail('the ZIP cannot be read back.');
    }
  }

  // ── PNG sequences ─────────────────────────────────────────────────────────────────────────

  private async sequence(): Promise<Facts> {
    const dir = this.plan.zip?.directory;
    if (!dir) return fail('the PNG sequence has no frames folder.');
    const entries = await this.zipEntries();
    const frames = entries.filter((e) => /^frame_\d{6}\.png$/.test(e.name));
    if (frames.length !== entries.length) fail('the PNG sequence ZIP holds unexpected files.');
    if (Math.abs(frames.length - this.p.frames) > 1) fail(`the PNG sequence has ${frames.length} frames, expected ${this.p.frames}.`);
    const indices = sampleIndices(frames.length);
    const stats: PlaneStats[] = [];
    let pixFmt = '';
    for (const i of indices) {
      const file = path.join(dir, frames[i]!.name);
      const probed = await this.probe(file, 'png_pipe');
      const v = probed.video;
      if (v?.codec !== 'png' || v.width !== this.p.width || v.height !== this.p.height) {
        fail(`${frames[i]!.name} is not a ${this.p.width}x${this.p.height} PNG.`);
      }
      if (v!.pixFmt !== 'rgba') fail(`${frames[i]!.name} is ${v!.pixFmt}, not RGBA.`);
      pixFmt = v!.pixFmt;
      const [plane] = await decodePlanes(['-f', 'png_pipe', '-protocol_whitelist', 'file', '-i', file], 'alphaextract', null, this.p.width, this.p.height, this.signal);
      if (!plane) fail(`${frames[i]!.name} could not be decoded.`);
      stats.push(planeStats(plane!));
    }
    const range = await this.judgePlanes(stats, indices);
    return {
      width: this.p.width,
      height: this.p.height,
      duration: round(frames.length / this.p.fps),
      fps: round(this.p.fps),
      frame_count: frames.length,
      pixel_format: pixFmt,
      loop: false,
      loop_count: null,
      alpha_range: range,
      has_audio: false,
    };
  }

  // ── animated images ───────────────────────────────────────────────────────────────────────

  private async animation(): Promise<Facts> {
    const bytes = new Uint8Array(await fs.readFile(this.file));
    const p = this.p;
    let info: AnimationInfo;
    let stats: PlaneStats[];
    let pixFmt: string;
    let indices: number[] | null = null;
    try {
      if (p.codec === 'webp') {
        const webp = readWebp(bytes);
        info = webp;
        stats = await this.webpAlpha(webp);
        pixFmt = 'yuva420p';
      } else if (p.codec === 'apng') {
        const apng = readApng(bytes);
        if (apng.colorType !== 6) fail('the APNG is not RGBA.');
        info = apng;
        indices = sampleIndices(apng.frames.length);
        stats = (await decodePlanes(['-f', 'apng', '-protocol_whitelist', 'file', '-i', this.file], 'alphaextract', indices, p.width, p.height, this.signal)).map(planeStats);
        pixFmt = 'rgba';
      } else {
        info = await this.gifInfo(bytes);
        indices = sampleIndices(info.frames.length);
        stats = (await decodePlanes(['-f', 'gif', '-protocol_whitelist', 'file', '-i', this.file], 'alphaextract', indices, p.width, p.height, this.signal)).map(planeStats);
        pixFmt = 'pal8';
      }
    } catch (e) {
      if (e instanceof MediaError) throw e;
      return fail(`the ${p.codec} file cannot be read back (${e instanceof Error ? e.message : String(e)}).`);
    }
    if (info.width !== p.width || info.height !== p.height) fail(`the animation is ${info.width}x${info.height}, expected ${p.width}x${p.height}.`);
    if (!info.hasAlpha) fail('the animation has no transparency.');
    if (info.loopCount !== 0) fail(`the animation loops ${info.loopCount} times instead of forever.`);
    const count = info.frames.length;
    // libwebp merges a frame identical to the previous one into it (longer duration), so a WebP
    // may hold fewer frames; its total duration is still checked below.
    const tooFew = p.codec === 'webp' ? count < 1 : count < p.frames - 1;
    if (tooFew || count > p.frames + 1) fail(`the animation has ${count} frames, expected ${p.frames}.`);
    const duration = info.frames.reduce((t, f) => t + f.duration, 0) / 1000;
    // Frame delays are stored in whole milliseconds (centiseconds for GIF): allow that rounding too.
    const rounding = (p.codec === 'gif' ? 0.005 : 0.0005) * count;
    if (Math.abs(duration - p.duration) > this.frameTolerance + rounding) {
      fail(`the animation lasts ${duration.toFixed(3)} s, expected ${p.duration.toFixed(3)} s.`);
    }
    // Mask means only compare for full-canvas decodes: WebP samples are frame rectangles.
    const range = await this.judgePlanes(stats, p.codec === 'webp' ? null : indices);
    return {
      width: info.width,
      height: info.height,
      duration: round(duration),
      fps: round(p.codec === 'webp' ? p.fps : count / duration),
      frame_count: count,
      pixel_format: pixFmt,
      loop: true,
      loop_count: info.loopCount,
      alpha_range: range,
      has_audio: false,
    };
  }

  private async gifInfo(bytes: Uint8Array): Promise<AnimationInfo> {
    const header = readGifHeader(bytes);
    const probed = await this.probe(this.file, 'gif');
    const frames = probed.video?.frames ?? 0;
    const duration = probed.video?.duration ?? probed.formatDuration ?? 0;
    return {
      width: header.width,
      height: header.height,
      loopCount: header.loopCount ?? 1,
      hasAlpha: probed.video?.pixFmt === 'bgra',
      frames: Array.from({ length: frames }, () => ({ x: 0, y: 0, width: header.width, height: header.height, duration: (duration * 1000) / frames, hasAlpha: true })),
    };
  }

  /**
   * FFmpeg 5.1 cannot demux animated WebP: rewrap sampled frames as still WebPs and decode
   * those. Frames smaller than the canvas leave the rest transparent (dispose to background).
   */
  private async webpAlpha(webp: ReturnType<typeof readWebp>): Promise<PlaneStats[]> {
    if (webp.frames.some((f) => !f.hasAlpha)) fail('a WebP frame has no alpha.');
    const dir = await fs.mkdtemp(path.join(path.dirname(this.file), '.webp-check-'));
    try {
      const out: PlaneStats[] = [];
      for (const i of sampleIndices(webp.frames.length)) {
        const frame = webp.frames[i]!;
        const still = path.join(dir, `frame${i}.webp`);
        await fs.writeFile(still, stillWebp(frame, webp.frameChunks[i]!));
        const [plane] = await decodePlanes(['-f', 'webp_pipe', '-protocol_whitelist', 'file', '-i', still], 'alphaextract', null, frame.width, frame.height, this.signal);
        if (!plane) fail(`WebP frame ${i} could not be decoded.`);
        const s = planeStats(plane!);
        const covers = frame.width === webp.width && frame.height === webp.height;
        out.push(covers ? s : { ...s, min: 0, partial: s.partial });
      }
      return out;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The facts of a validated video stream (a single file, or a bundle's colour member). */
function videoFacts(
  v: NonNullable<ProbedFile['video']>,
  formatDuration: ProbedFile['formatDuration'],
  range: Facts['alpha_range'],
  hasAudio: boolean,
): Facts {
  return {
    width: v.width,
    height: v.height,
    duration: round(v.duration ?? formatDuration ?? v.frames / v.fps),
    fps: round(v.fps),
    frame_count: v.frames,
    pixel_format: v.pixFmt,
    loop: false,
    loop_count: null,
    alpha_range: range,
    has_audio: hasAudio,
  };
}

/**
 * Decodes the chosen frames (all frames of a still when `indices` is null) through
 * `planeFilter` into 8-bit planes, nearest-neighbour scaled to at most SAMPLE_WIDTH wide.
 * With `seekFps`, frames far into a video are reached by accurate input seeks instead of
 * decoding every frame before them (long files stay cheap to check); short files and
 * animations are decoded in one pass.
 */
async function decodePlanes(
  input: string[],
  planeFilter: string,
  indices: number[] | null,
  width: number,
  height: number,
  signal?: AbortSignal,
  seekFps?: number,
  /** Every frame is a keyframe (ProRes): a seek is always cheaper than decoding in order. */
  intraOnly = false,
): Promise<Uint8Array[]> {
  const w = Math.min(width, SAMPLE_WIDTH);
  const h = Math.max(1, Math.round((height * w) / width));
  const decode = async (pre: string[], select: string, frames: string[]) => {
    const { stdout } = await ffmpeg(
      [
        '-v', 'error', ...pre, ...input,
        '-vf', `${select}${planeFilter},scale=${w}:${h}:flags=neighbor,format=gray`,
        ...frames, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1',
      ],
      { timeoutMs: 600_000, signal },
    );
    const size = w * h;
    const planes: Uint8Array[] = [];
    for (let at = 0; at + size <= stdout.length; at += size) planes.push(new Uint8Array(stdout.subarray(at, at + size)));
    return planes;
  };
  // Seeking costs a process per frame: worth it only when a single pass would decode many frames.
  if (indices && seekFps && (intraOnly || Math.max(...indices) > SEEK_AFTER_FRAMES)) {
    const planes: Uint8Array[] = [];
    for (const i of indices) {
      // Half a frame early: the first frame at or after that time is frame i.
      const at = Math.max(0, (i - 0.5) / seekFps);
      planes.push(...(await decode(['-ss', at.toFixed(6)], '', ['-frames:v', '1'])));
    }
    return planes;
  }
  const select = indices ? `select='${indices.map((i) => `eq(n\\,${i})`).join('+')}',` : '';
  return decode([], select, []);
}
