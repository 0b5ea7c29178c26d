import fs from 'node:fs';
import path from 'node:path';
import { probeVideo } from '../../lib/media/probe';
import { ffmpeg } from '../../lib/media/ffmpeg';
import { EXCERPT_H264 } from '../../lib/media/fixtures';

const VIDEOS = path.resolve(import.meta.dirname, '../../../shared/testdata/videos');

/**
 * bench:jobs' clips, made from the shared footage: the juggle clip upscaled to 1080p and cut
 * to 10 s (a full-body subject at the size phones film), and the 7.3-s 512² talking head as it
 * is. `scale` null keeps the source untouched. `phone-4k` (not run unless named) is a large
 * input: the dog-and-woman clip at 3840x2160, looped to 60 s.
 */
export const JOB_CLIPS = {
  'juggle-1080p': {
    source: 'sam2_05_juggle_fullbody_1280x720.mp4',
    seconds: 10,
    scale: '1920:1080',
    loop: false,
  },
  'talking-head': {
    source: 'liveportrait_d12_talking_glasses_512.mp4',
    seconds: null,
    scale: null,
    loop: false,
  },
  'phone-4k': {
    source: 'sam2_01_dog_and_woman_1280x720.mp4',
    seconds: 60,
    scale: '3840:2160',
    loop: true,
  },
} as const;

/** The clips bench:jobs runs unless --clips names others. */
export const DEFAULT_JOB_CLIPS = ['juggle-1080p', 'talking-head'];

/**
 * The reference row that renders the same output from a ready mask (made by `maskFrom`, untimed).
 */
export const RENDER_ONLY = { name: 'render only', maskFrom: 'service-human' } as const;

export interface JobClip {
  file: string;
  seconds: number;
  width: number;
  height: number;
}

/** The clip `name`, made into `dir` where it needs making; `cut` seconds keeps only its start. */
export async function prepareJobClip(name: string, dir: string, cut?: number): Promise<JobClip> {
  if (!Object.hasOwn(JOB_CLIPS, name))
    throw new Error(`unknown clip ${name}; use ${Object.keys(JOB_CLIPS).join(', ')}`);
  const spec = JOB_CLIPS[name as keyof typeof JOB_CLIPS];
  const source = path.join(VIDEOS, spec.source);
  if (!fs.existsSync(source)) throw new Error(`shared footage not found: ${source}`);
  let file = source;
  const seconds = cut ?? spec.seconds;
  if (spec.scale || seconds !== null) {
    file = path.join(dir, `${name}.mp4`);
    const scale = spec.scale ? ['-vf', `scale=${spec.scale}:flags=lanczos`] : [];
    const length = seconds !== null ? ['-t', String(seconds)] : [];
    await ffmpeg(
      [
        '-v',
        'error',
        '-y',
        ...(spec.loop ? ['-stream_loop', '-1'] : []),
        '-i',
        source,
        ...length,
        ...scale,
        ...EXCERPT_H264,
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        file,
      ],
      { timeoutMs: 600_000 },
    );
  }
  const info = await probeVideo(file);
  return { file, seconds: info.duration, width: info.width, height: info.height };
}
