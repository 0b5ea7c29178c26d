import { clearTransparent } from './codecs';
import { ANIMATED_IMAGE, APNG_FILE } from './shared-traits';
import type { OutputFormat } from './types';

/** Animated PNG, lossless RGBA, looping forever. */
export const apng = {
  ...ANIMATED_IMAGE,
  ...APNG_FILE,
  id: 'apng',
  label: 'Animated PNG',
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
