import fs from 'node:fs/promises';
import path from 'node:path';
import {
  readApng,
  readGifHeader,
  readWebp,
  stillWebp,
  type AnimationInfo,
} from '../../../engine/media/containers';
import { MediaError } from '../ffmpeg';
import { fail, round, type Check, type Facts } from './check';
import { decodePlanes, planeStats, sampleIndices, type PlaneStats } from './planes';

/**
 * The alpha statistics of the sampled frames, decoded by the system ffmpeg with `demuxer` forced.
 */
async function sampledAlpha(
  c: Check,
  demuxer: 'apng' | 'gif',
  filter: string,
  indices: number[],
): Promise<PlaneStats[]> {
  const input = ['-f', demuxer, '-protocol_whitelist', 'file', '-i', c.file];
  const planes = await decodePlanes(input, filter, indices, c.p.width, c.p.height, c.signal);
  return planes.map(planeStats);
}

/**
 * Animated WebP, APNG and GIF: the container read back by our own parsers (size, loop, frame
 * delays), the alpha decoded from sampled frames (binary for GIF).
 */
export async function animation(c: Check): Promise<Facts> {
  const bytes = new Uint8Array(await fs.readFile(c.file));
  const p = c.p;
  let info: AnimationInfo;
  let stats: PlaneStats[];
  let pixFmt: string;
  let indices: number[] | null = null;
  try {
    if (p.codec === 'webp') {
      const webp = readWebp(bytes);
      info = webp;
      stats = await webpAlpha(c, webp);
      pixFmt = 'yuva420p';
    } else if (p.codec === 'apng') {
      const apng = readApng(bytes);
      // RGBA, or (stickers) one palette whose tRNS entries carry partial alpha.
      if (apng.colorType !== 6 && !(apng.colorType === 3 && apng.hasAlpha))
        fail('the APNG is neither RGBA nor a palette with alpha.');
      info = apng;
      indices = sampleIndices(apng.frames.length);
      stats = await sampledAlpha(c, 'apng', 'format=rgba,alphaextract', indices);
      pixFmt = apng.colorType === 3 ? 'pal8' : 'rgba';
    } else {
      info = await gifInfo(c, bytes);
      indices = sampleIndices(info.frames.length);
      stats = await sampledAlpha(c, 'gif', 'alphaextract', indices);
      pixFmt = 'pal8';
    }
  } catch (e) {
    if (e instanceof MediaError) throw e;
    return fail(
      `the ${p.codec} file cannot be read back (${e instanceof Error ? e.message : String(e)}).`,
    );
  }
  if (info.width !== p.width || info.height !== p.height)
    fail(`the animation is ${info.width}x${info.height}, expected ${p.width}x${p.height}.`);
  if (!info.hasAlpha) fail('the animation has no transparency.');
  if (info.loopCount !== 0) fail(`the animation loops ${info.loopCount} times instead of forever.`);
  const count = info.frames.length;
  // libwebp merges a frame identical to the previous one into it (longer duration), so a WebP
  // may hold fewer frames; its total duration is still checked below.
  const tooFew = p.codec === 'webp' ? count < 1 : count < p.frames - 1;
  if (tooFew || count > p.frames + 1)
    fail(`the animation has ${count} frames, expected ${p.frames}.`);
  const duration = info.frames.reduce((t, f) => t + f.duration, 0) / 1000;
  // Frame delays are stored in whole milliseconds (centiseconds for GIF): allow that rounding too.
  const rounding = (p.codec === 'gif' ? 0.005 : 0.0005) * count;
  if (Math.abs(duration - p.duration) > c.frameTolerance + rounding) {
    fail(`the animation lasts ${duration.toFixed(3)} s, expected ${p.duration.toFixed(3)} s.`);
  }
  // Mask means only compare for full-canvas decodes: WebP samples are frame rectangles.
  const range = await c.judgePlanes(stats, p.codec === 'webp' ? null : indices);
  return {
    width: info.width,
    height: info.height,
    duration_seconds: round(duration),
    fps: round(p.codec === 'webp' ? p.fps : count / duration),
    frame_count: count,
    pixel_format: pixFmt,
    loop: true,
    loop_count: info.loopCount,
    alpha_range: range,
    has_audio: false,
  };
}

async function gifInfo(c: Check, bytes: Uint8Array): Promise<AnimationInfo> {
  const header = readGifHeader(bytes);
  const probed = await c.probe(c.file, 'gif');
  const frames = probed.video?.frames ?? 0;
  const duration = probed.video?.duration ?? probed.formatDuration ?? 0;
  return {
    width: header.width,
    height: header.height,
    loopCount: header.loopCount ?? 1,
    hasAlpha: probed.video?.pixFmt === 'bgra',
    frames: Array.from({ length: frames }, () => ({
      x: 0,
      y: 0,
      width: header.width,
      height: header.height,
      duration: (duration * 1000) / frames,
      hasAlpha: true,
    })),
  };
}

/**
 * FFmpeg 5.1 cannot demux animated WebP: rewrap sampled frames as still WebPs and decode
 * those. Frames smaller than the canvas leave the rest transparent (dispose to background).
 */
async function webpAlpha(c: Check, webp: ReturnType<typeof readWebp>): Promise<PlaneStats[]> {
  const covers = (f: { width: number; height: number }) =>
    f.width === webp.width && f.height === webp.height;
  // A frame with no alpha of its own is opaque: fine as a rectangle on the transparent canvas
  // (libwebp crops a frame to its subject), not when it covers the whole canvas.
  if (webp.frames.some((f) => !f.hasAlpha && covers(f))) fail('a WebP frame has no alpha.');
  const dir = await fs.mkdtemp(path.join(path.dirname(c.file), '.webp-check-'));
  try {
    const out: PlaneStats[] = [];
    for (const i of sampleIndices(webp.frames.length)) {
      const frame = webp.frames[i]!;
      if (!frame.hasAlpha) {
        const opaque = (frame.width * frame.height) / (webp.width * webp.height);
        out.push({ min: 0, max: 255, mean: 255 * opaque, partial: 0 });
        continue;
      }
      const still = path.join(dir, `frame${i}.webp`);
      await fs.writeFile(still, stillWebp(frame, webp.frameChunks[i]!));
      const [plane] = await decodePlanes(
        ['-f', 'webp_pipe', '-protocol_whitelist', 'file', '-i', still],
        'alphaextract',
        null,
        frame.width,
        frame.height,
        c.signal,
      );
      if (!plane) fail(`WebP frame ${i} could not be decoded.`);
      const s = planeStats(plane!);
      out.push(covers(frame) ? s : { ...s, min: 0, partial: s.partial });
    }
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
