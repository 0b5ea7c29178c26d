import { convertTo, PCM, proresKs } from './codecs';
import { ALPHA_VIDEO } from './shared-traits';
import type { OutputFormat } from './types';

/** ProRes 4444 with an 8-bit alpha plane (our mattes are 8-bit, so nothing is lost). */
export const movProres = {
  ...ALPHA_VIDEO,
  id: 'mov_prores',
  label: 'MOV (ProRes 4444 with alpha) — Final Cut, Premiere, Resolve',
  extension: 'mov',
  contentType: 'video/quicktime',
  codec: 'prores',
  container: 'mov',
  profile: 'video-alpha',
  workingFormat: 'yuv444p',
  classicStatus: true,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: convertTo('yuva444p10le'),
      encoder: [...proresKs('4444', 'yuva444p10le', 8), ...(audio ? PCM : []), '-f', 'mov'],
    }),
  },
} as const satisfies OutputFormat<'mov_prores'>;
