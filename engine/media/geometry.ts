import { STICKER_MAX_FPS, STICKER_MIN_FPS, type StickerPolicy } from '../formats/sticker-policy';
import type { MediaInfo } from './types';

/** What a recipe asks of the output's frames (the API's `transform`, in source display pixels). */
export interface Transform {
  crop?: { x: number; y: number; width: number; height: number };
  max_width?: number;
  fps?: number;
  reverse?: boolean;
}

/** Size, rate and length of an output, computed before encoding so validation can check them. */
export interface OutputGeometry {
  /**
   * Crop in source display pixels, already clamped to the frame and to even sizes; null = whole
   * frame.
   */
  crop: { x: number; y: number; width: number; height: number } | null;
  width: number;
  height: number;
  /** Output frame rate as an ffmpeg rational ("24/1", "30000/1001"). */
  fpsRational: string;
  fps: number;
  frames: number;
  duration: number;
  /** True when the frame rate differs from the normalized source's. */
  retimed: boolean;
  reverse: boolean;
  /**
   * Stickers: the picture fitted inside the canvas (width × height) and the loop sped up to fit the
   * cap.
   */
  sticker?: StickerFit;
}

export interface StickerFit {
  /**
   * The cropped source scaled to fit inside the canvas (even sizes); transparent padding around it.
   */
  fit: { width: number; height: number };
  /** Presentation time factor: 1, or below 1 when a source longer than the cap is sped up. */
  speed: number;
  /** The loop's length in seconds (the source's, or the cap); frames = floor(loop × fps). */
  loopSeconds: number;
}

export function parseRational(r: string): number {
  const [n, d = '1'] = r.split('/');
  const v = Number(n) / Number(d);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`Not a frame rate: ${r}`);
  return v;
}

/**
 * Encoders that subsample chroma need even sizes; every output uses them for one rule everywhere.
 */
export const evenDown = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

/** Scales (w, h) down to at most maxWidth wide, keeping the aspect ratio, both even. */
export function fitWidth(
  w: number,
  h: number,
  maxWidth: number | undefined,
): { width: number; height: number } {
  if (!maxWidth || w <= maxWidth) return { width: evenDown(w), height: evenDown(h) };
  const width = evenDown(maxWidth);
  return { width, height: evenDown(Math.round((h * width) / w)) };
}

/**
 * GIF delays are whole centiseconds: snap a rate to 100/n (at most 50 fps) so the file plays at the
 * promised speed.
 */
export function gifRate(fps: number): string {
  const delay = Math.max(2, Math.round(100 / fps));
  return `100/${delay}`;
}

/**
 * Where `transform` leaves the output. `frames` is the number of normalized source frames (the
 * mask's frame count, one per normalized source frame).
 */
export function outputGeometry(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  frames: number,
  transform: Transform | undefined,
  opts: { snapToGifRate?: boolean } = {},
): OutputGeometry {
  const crop = clampCrop(info, transform?.crop);
  const base = crop ?? { width: info.width, height: info.height };
  const { width, height } = fitWidth(base.width, base.height, transform?.max_width);
  const srcFps = parseRational(info.fpsRational);
  const duration = frames / srcFps;
  let fpsRational = transform?.fps ? `${Math.round(transform.fps)}/1` : info.fpsRational;
  if (opts.snapToGifRate) fpsRational = gifRate(parseRational(fpsRational));
  const fps = parseRational(fpsRational);
  const retimed = Math.abs(fps - srcFps) > 1e-9;
  const outFrames = retimed ? Math.max(1, Math.round(duration * fps)) : frames;
  return {
    crop,
    width,
    height,
    fpsRational,
    fps,
    frames: outFrames,
    duration: outFrames / fps,
    retimed,
    reverse: transform?.reverse ?? false,
  };
}

function clampCrop(
  info: Pick<MediaInfo, 'width' | 'height'>,
  crop: Transform['crop'],
): OutputGeometry['crop'] {
  if (!crop) {
    // Odd-sized sources lose their last row/column rather than being rescaled by one pixel.
    const even = { x: 0, y: 0, width: evenDown(info.width), height: evenDown(info.height) };
    return even.width === info.width && even.height === info.height ? null : even;
  }
  const x = clampInt(crop.x, 0, info.width - 2);
  const y = clampInt(crop.y, 0, info.height - 2);
  const width = evenDown(Math.min(Math.round(crop.width), info.width - x));
  const height = evenDown(Math.min(Math.round(crop.height), info.height - y));
  if (x === 0 && y === 0 && width === evenDown(info.width) && height === evenDown(info.height))
    return null;
  return { x, y, width, height };
}

/**
 * A sticker's frame rate as an ffmpeg rational: whole fps, or 100/n for GIF's centisecond delays
 * (at most 25 fps).
 */
export function stickerRate(fps: number, gifRates: boolean): string {
  if (!gifRates) return `${Math.round(fps)}/1`;
  const delay = Math.min(
    Math.floor(100 / STICKER_MIN_FPS),
    Math.max(Math.ceil(100 / STICKER_MAX_FPS), Math.round(100 / fps)),
  );
  return `100/${delay}`;
}

/**
 * Where a sticker's transform leaves it: the (cropped) source fitted inside the policy's canvas,
 * at the frame rate asked for (else the source's), kept within 12–30 fps, and the whole loop
 * within the policy's cap — a longer source is sped up, never cut, so its ending stays.
 */
export function stickerGeometry(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  frames: number,
  transform: Transform | undefined,
  policy: Pick<StickerPolicy, 'canvas' | 'maxSeconds'> & { gifRates: boolean },
): OutputGeometry {
  const crop = clampCrop(info, transform?.crop);
  const base = crop ?? { width: evenDown(info.width), height: evenDown(info.height) };
  const srcFps = parseRational(info.fpsRational);
  const sourceSeconds = frames / srcFps;
  const loopSeconds = Math.min(sourceSeconds, policy.maxSeconds);
  const wanted = Math.min(STICKER_MAX_FPS, Math.max(STICKER_MIN_FPS, transform?.fps ?? srcFps));
  const fpsRational = stickerRate(wanted, policy.gifRates);
  const fps = parseRational(fpsRational);
  const outFrames = Math.max(1, Math.floor(loopSeconds * fps + 1e-6));
  const { width, height } = policy.canvas;
  const s = Math.min(width / base.width, height / base.height);
  const fit = {
    width: Math.min(width, evenDown(base.width * s)),
    height: Math.min(height, evenDown(base.height * s)),
  };
  return {
    crop,
    width,
    height,
    fpsRational,
    fps,
    frames: outFrames,
    duration: outFrames / fps,
    retimed: true,
    reverse: transform?.reverse ?? false,
    sticker: { fit, speed: loopSeconds / sourceSeconds, loopSeconds },
  };
}

const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));

/** The crop part of a transform, applied where the picture is still at source size. */
export function cropFilters(g: OutputGeometry): string[] {
  return g.crop ? [`crop=${g.crop.width}:${g.crop.height}:${g.crop.x}:${g.crop.y}`] : [];
}

/**
 * The rest of a transform (scale to the output size, frame rate, reverse), applied last, to
 * frames already merged with their matte so colour and matte move together.
 */
export function finishFilters(
  g: OutputGeometry,
  current: { width: number; height: number },
): string[] {
  if (g.sticker) return stickerFilters(g, g.sticker, current);
  const f: string[] = [];
  if (current.width !== g.width || current.height !== g.height) {
    f.push(`scale=${g.width}:${g.height}:flags=bicubic`, 'setsar=1');
  }
  if (g.retimed) f.push(`fps=${g.fpsRational}`);
  if (g.reverse) f.push('reverse');
  return f;
}

/** Size of the picture after cropping, before scaling. */
export function croppedSize(g: OutputGeometry, source: { width: number; height: number }) {
  return { width: g.crop?.width ?? source.width, height: g.crop?.height ?? source.height };
}

/**
 * A sticker's picture: sped up to the cap when longer, at its rate, cut to its frame count, fitted,
 * reversed when asked (at the small size), then padded with transparency to the canvas. A still
 * (poster) is not retimed and skips the timing filters.
 */
function stickerFilters(
  g: OutputGeometry,
  s: StickerFit,
  current: { width: number; height: number },
): string[] {
  const f: string[] = [];
  if (g.retimed) {
    if (s.speed < 1) f.push(`setpts=PTS*${s.speed.toFixed(6)}`);
    f.push(`fps=${g.fpsRational}`, `trim=end_frame=${g.frames}`);
  }
  if (current.width !== s.fit.width || current.height !== s.fit.height)
    f.push(`scale=${s.fit.width}:${s.fit.height}:flags=bicubic`, 'setsar=1');
  if (g.reverse) f.push('reverse');
  if (s.fit.width !== g.width || s.fit.height !== g.height)
    f.push(`pad=${g.width}:${g.height}:(ow-iw)/2:(oh-ih)/2:color=black@0`);
  return f;
}
