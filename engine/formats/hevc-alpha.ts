import { AAC, convertTo } from './codecs';
import { ALPHA_VIDEO } from './shared-traits';
import type { OutputFormat } from './types';

/**
 * HEVC with an alpha layer, tagged hvc1 for Apple players. The branch writes the picture
 * losslessly (FFV1 yuva420p, AAC audio, in NUT); FFmpeg 8 in-process (node-av, libx265 with
 * x265 4) then encodes the colour and alpha layers into MOV (lib/media/hevc-alpha.ts): Debian's
 * FFmpeg 5.1 cannot write the alpha layer.
 */
export const hevcAlpha = {
  ...ALPHA_VIDEO,
  id: 'hevc_alpha',
  label: 'MOV (HEVC with alpha) — Safari and Apple devices',
  extension: 'mov',
  contentType: 'video/quicktime',
  codec: 'hevc',
  container: 'mov',
  profile: 'video-alpha-layer',
  workingFormat: 'yuv420p',
  classicStatus: false,
  cliDefault: false,
  requires: 'hevc-alpha',
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: convertTo('yuva420p'),
      encoder: ['-c:v', 'ffv1', '-pix_fmt', 'yuva420p', ...(audio ? AAC : []), '-f', 'nut'],
    }),
    finish: 'hevc-alpha',
  },
} as const satisfies OutputFormat<'hevc_alpha'>;
