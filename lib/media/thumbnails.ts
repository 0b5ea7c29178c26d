import fs from 'node:fs/promises';
import path from 'node:path';
import { posterArgs, thumbnailArgs, thumbnailFrame } from '../../engine/media/thumbnails';
import type { Demuxer, MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { MediaError } from './ffmpeg';
import { countFrames, probeFile } from './frames';
import { runEncode } from './run-ffmpeg';

/**
 * A JPEG of a representative source frame and a PNG of the same frame cut out (RGBA), both at
 * most 640 px wide, written to outDir as thumbnail.jpg and thumbnail.png; each is read back.
 */
export async function renderThumbnails(opts: {
  source: string;
  info: MediaInfo;
  mask: string;
  outDir: string;
}): Promise<{ jpeg: string; png: string }> {
  await fs.mkdir(opts.outDir, { recursive: true });
  const jpeg = path.join(opts.outDir, 'thumbnail.jpg');
  const png = path.join(opts.outDir, 'thumbnail.png');
  const frames = await countFrames(opts.mask, 'matroska');
  const plan = thumbnailArgs({ ...opts, maxPixels: env().MAX_FRAME_PIXELS, frame: thumbnailFrame(frames, opts.info.fps), jpeg, png });
  await runEncode(plan.args, { what: 'the thumbnails' });
  const [j, p] = await Promise.all([probeFile(jpeg, 'jpeg_pipe'), probeFile(png, 'png_pipe')]);
  const ok = (v: typeof j.video, codec: string, pixFmt: string) =>
    v?.codec === codec && v.width === plan.width && v.height === plan.height && v.pixFmt === pixFmt;
  if (!ok(j.video, 'mjpeg', 'yuvj420p') || !ok(p.video, 'png', 'rgba')) {
    throw new MediaError('The thumbnails failed validation.');
  }
  return { jpeg, png };
}

const OUTPUT_DEMUXERS: Record<string, Demuxer> = { mp4: 'mov', mov: 'mov', webm: 'matroska' };

/**
 * The poster of a rendered video output (the frame thumbnails show, a third of the way in, on
 * the output's own timeline), as poster.jpg in outDir; null for outputs that are not a video.
 */
export async function renderPoster(opts: { file: string; extension: string; info: MediaInfo; outDir: string }): Promise<string | null> {
  const demuxer = OUTPUT_DEMUXERS[opts.extension];
  if (!demuxer) return null;
  const jpeg = path.join(opts.outDir, 'poster.jpg');
  const seconds = thumbnailFrame(opts.info.frameCount, opts.info.fps) / (opts.info.fps || 25);
  await runEncode(posterArgs({ file: opts.file, demuxer, seconds, maxPixels: env().MAX_FRAME_PIXELS, jpeg }), { what: 'the poster' });
  const v = (await probeFile(jpeg, 'jpeg_pipe')).video;
  if (v?.codec !== 'mjpeg' || !v.width) throw new MediaError('The poster failed validation.');
  return jpeg;
}
