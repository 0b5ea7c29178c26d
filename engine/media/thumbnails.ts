import { singleImage } from '../formats/codecs';
import { fitWidth } from './geometry';
import { safeInputArgs } from './input';
import { normalizeFilters } from './normalize';
import type { MediaInfo } from './types';

/** Thumbnails are at most this wide. */
export const THUMBNAIL_WIDTH = 640;

/**
 * The representative frame: a third of the way in (past fades and slates), but no later than
 * 10 s so long videos are not decoded far.
 */
export function thumbnailFrame(frames: number, fps: number): number {
  return Math.max(0, Math.min(Math.floor(frames / 3), Math.round(10 * fps), frames - 1));
}

/**
 * One ffmpeg run writing a JPEG of the source frame and a PNG of the cut-out (RGBA, colour of
 * fully transparent pixels zeroed so the file stays small).
 */
export function thumbnailArgs(p: {
  info: MediaInfo;
  source: string;
  /** The frame-pixel cap the source was probed under. */
  maxPixels: number;
  mask: string;
  frame: number;
  jpeg: string;
  png: string;
}): { args: string[]; width: number; height: number } {
  const { width, height } = fitWidth(p.info.width, p.info.height, THUMBNAIL_WIDTH);
  const pick = `select='eq(n\\,${p.frame})'`;
  const scale = `scale=${width}:${height}:flags=bicubic,setsar=1`;
  const graph = [
    `[0:v]${[...normalizeFilters(p.info), pick, scale, 'format=yuv444p'].join(',')},split[s1][s2]`,
    `[1:v]${[...normalizeFilters(p.info), pick, scale, 'format=gray'].join(',')},split[m1][m2]`,
    `[s1]format=yuvj420p[jpeg]`,
    `[m2]format=gray,lut=c0='if(gt(val,0),255,0)',format=gbrp[keep]`,
    `[s2]format=gbrp[c]`,
    `[c][keep]blend=all_mode=multiply[cc]`,
    `[cc][m1]alphamerge,format=rgba[png]`,
  ];
  return {
    width,
    height,
    args: [
      ...safeInputArgs(p.info, p.source, p.maxPixels),
      ...safeInputArgs({ demuxer: 'matroska' }, p.mask, p.maxPixels),
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[jpeg]',
      ...singleImage(['-c:v', 'mjpeg', '-q:v', '3']),
      p.jpeg,
      '-map',
      '[png]',
      ...singleImage(['-c:v', 'png']),
      p.png,
    ],
  };
}
