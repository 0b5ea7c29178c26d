import { clearTransparent } from './codecs';
import type { OutputFormat } from './types';

/** Animated PNG, lossless RGBA, looping forever. */
export const apng = {
  id: 'apng',
  family: 'transparent',
  label: 'Animated PNG',
  extension: 'png',
  contentType: 'image/apng',
  codec: 'apng',
  container: 'apng',
  profile: 'animation-alpha',
  alpha: 'straight',
  inverted: false,
  keepsAudio: false,
  loop: true,
  workingFormat: 'yuv444p',
  nativeOnly: false,
  studio: true,
  classicStatus: false,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    branch: () => ({
      tail: (i, o) => clearTransparent(i, o, 'rgba'),
      encoder: ['-c:v', 'apng', '-compression_level', '3', '-plays', '0', '-f', 'apng'],
    }),
  },
} as const satisfies OutputFormat<'apng'>;
