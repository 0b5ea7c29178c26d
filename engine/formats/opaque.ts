import {
  AAC,
  clampCrf,
  convertTo,
  MP4_MUXER,
  OPUS,
  PCM,
  proresKs,
  vp9ConstantQuality,
  x264,
} from './codecs';
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
      tail: convertTo('yuv420p'),
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
      tail: convertTo('yuv420p'),
      encoder: [
        ...vp9ConstantQuality('yuv420p', clampCrf(crf ?? 32, 63)),
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
      tail: convertTo('yuv422p10le'),
      encoder: [...proresKs('3', 'yuv422p10le'), ...(audio ? PCM : []), '-f', 'mov'],
    }),
  },
} as const satisfies OutputFormat<'mov'>;
