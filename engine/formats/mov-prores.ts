import { PCM } from './codecs';
import type { OutputFormat } from './types';

/**
 * ProRes 4444 with an 8-bit alpha plane (our mattes are 8-bit, so nothing is lost). A fixed
 * quantiser instead of prores_ks's rate search: about 5x faster and 2-3x smaller at the same look.
 */
export const movProres = {
  id: 'mov_prores',
  family: 'transparent',
  label: 'MOV (ProRes 4444 with alpha) — Final Cut, Premiere, Resolve',
  extension: 'mov',
  contentType: 'video/quicktime',
  codec: 'prores',
  container: 'mov',
  profile: 'video-alpha',
  alpha: 'straight',
  inverted: false,
  keepsAudio: true,
  loop: false,
  workingFormat: 'yuv444p',
  nativeOnly: false,
  studio: false,
  classicStatus: true,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: (i, o) => [`[${i}]format=yuva444p10le[${o}]`],
      encoder: [
        '-c:v',
        'prores_ks',
        '-profile:v',
        '4444',
        '-pix_fmt',
        'yuva444p10le',
        '-qscale:v',
        '9',
        '-alpha_bits',
        '8',
        '-vendor',
        'apl0',
        ...(audio ? PCM : []),
        '-f',
        'mov',
      ],
    }),
  },
} as const satisfies OutputFormat<'mov_prores'>;
