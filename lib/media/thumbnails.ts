import fs from 'node:fs/promises';
import path from 'node:path';
import { thumbnailArgs, thumbnailFrame } from '../../engine/media/thumbnails';
import type { MediaInfo } from '../../engine/media/types';
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
  const plan = thumbnailArgs({
    ...opts,
    maxPixels: env().MAX_FRAME_PIXELS,
    frame: thumbnailFrame(frames, opts.info.fps),
    jpeg,
    png,
  });
  await runEncode(plan.args, { what: 'the thumbnails' });
  const [j, p] = await Promise.all([probeFile(jpeg, 'jpeg_pipe'), probeFile(png, 'png_pipe')]);
  const ok = (v: typeof j.video, codec: string, pixFmt: string) =>
    v?.codec === codec && v.width === plan.width && v.height === plan.height && v.pixFmt === pixFmt;
  if (!ok(j.video, 'mjpeg', 'yuvj420p') || !ok(p.video, 'png', 'rgba')) {
    throw new MediaError('The thumbnails failed validation.');
  }
  return { jpeg, png };
}
