import { AAC, clampCrf, MP4_MUXER, OPUS, PCM, VP9_REALTIME, x264 } from './codecs';
import type { OutputFormat } from './types';

/** The containers of opaque outputs (the subject on a colour, an image or video, or a blur). */
const opaque = {
  family: 'opaque',
  profile: 'video-opaque',
  alpha: 'none',
  inverted: false,
  keepsAudio: true,
  loop: false,
  nativeOnly: false,
  studio: false,
  classicStatus: false,
  cliDefault: true,
} as const;

export const mp4 = {
  ...opaque,
  id: 'mp4',
  aliases: ['h264'],
  label: 'MP4 (H.264)',
  extension: 'mp4',
  contentType: 'video/mp4',
  codec: 'h264',
  container: 'mp4',
  workingFormat: 'yuv420p',
  encoding: {
    kind: 'branch',
    branch: ({ audio, crf, preset }) => ({
      tail: (i, o) => [`[${i}]format=yuv420p[${o}]`],
      encoder: [...x264(clampCrf(crf ?? 20, 51), preset), ...(audio ? AAC : []), ...MP4_MUXER],
    }),
  },
} as const satisfies OutputFormat<'mp4'>;

export const webm = {
  ...opaque,
  id: 'webm',
  label: 'WebM (VP9)',
  extension: 'webm',
  contentType: 'video/webm',
  codec: 'vp9',
  container: 'webm',
  workingFormat: 'yuv420p',
  encoding: {
    kind: 'branch',
    branch: ({ audio, crf }) => ({
      tail: (i, o) => [`[${i}]format=yuv420p[${o}]`],
      encoder: [
        '-c:v',
        'libvpx-vp9',
        '-pix_fmt',
        'yuv420p',
        ...VP9_REALTIME,
        '-crf',
        String(clampCrf(crf ?? 32, 63)),
        '-b:v',
        '0',
        ...(audio ? OPUS : []),
        '-f',
        'webm',
      ],
    }),
  },
} as const satisfies OutputFormat<'webm'>;

/** ProRes 422 HQ: `.mov` stays ProRes for clients, and it is what editors expect. */
export const mov = {
  ...opaque,
  id: 'mov',
  label: 'MOV (ProRes 422 HQ)',
  extension: 'mov',
  contentType: 'video/quicktime',
  codec: 'prores',
  container: 'mov',
  workingFormat: 'yuv444p',
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: (i, o) => [`[${i}]format=yuv422p10le[${o}]`],
      encoder: [
        '-c:v',
        'prores_ks',
        '-profile:v',
        '3',
        '-pix_fmt',
        'yuv422p10le',
        '-qscale:v',
        '9',
        '-vendor',
        'apl0',
        ...(audio ? PCM : []),
        '-f',
        'mov',
      ],
    }),
  },
} as const satisfies OutputFormat<'mov'>;
