import { OPUS, VP9_REALTIME } from './codecs';
import type { OutputFormat } from './types';

/** VP9 with alpha (yuva420p; the WebM muxer writes alpha_mode=1) + Opus: what browsers play. */
export const webmVp9 = {
  id: 'webm_vp9',
  family: 'transparent',
  label: 'WebM (VP9 with alpha) — web and most editors',
  extension: 'webm',
  contentType: 'video/webm',
  codec: 'vp9',
  container: 'webm',
  profile: 'video-alpha',
  alpha: 'straight',
  inverted: false,
  keepsAudio: true,
  loop: false,
  workingFormat: 'yuv420p',
  nativeOnly: false,
  studio: false,
  classicStatus: true,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: (i, o) => [`[${i}]format=yuva420p[${o}]`],
      encoder: [
        '-c:v',
        'libvpx-vp9',
        '-pix_fmt',
        'yuva420p',
        ...VP9_REALTIME,
        '-crf',
        '30',
        '-b:v',
        '0',
        '-metadata:s:v:0',
        'alpha_mode=1',
        ...(audio ? OPUS : []),
        '-f',
        'webm',
      ],
    }),
  },
} as const satisfies OutputFormat<'webm_vp9'>;
