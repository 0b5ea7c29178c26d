import { AAC } from './codecs';
import type { OutputFormat } from './types';

/** HEVC with an alpha layer, tagged hvc1 for Apple players (libx265 writes it for yuva input on FFmpeg 7.1+ with x265 4+). */
export const hevcAlpha = {
  id: 'hevc_alpha',
  family: 'transparent',
  label: 'MOV (HEVC with alpha) — Safari and Apple devices',
  extension: 'mov',
  contentType: 'video/quicktime',
  codec: 'hevc',
  container: 'mov',
  profile: 'video-alpha-layer',
  alpha: 'straight',
  inverted: false,
  keepsAudio: true,
  loop: false,
  workingFormat: 'yuv420p',
  nativeOnly: false,
  classicStatus: false,
  cliDefault: false,
  requires: 'hevc-alpha',
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: (i, o) => [`[${i}]format=yuva420p[${o}]`],
      encoder: ['-c:v', 'libx265', '-pix_fmt', 'yuva420p', '-preset', 'veryfast', '-crf', '24', '-tag:v', 'hvc1', ...(audio ? AAC : []), '-f', 'mov'],
    }),
  },
} as const satisfies OutputFormat<'hevc_alpha'>;
