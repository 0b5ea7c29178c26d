import { convertTo, webpAnimation } from './codecs';
import { ANIMATED_IMAGE, WEBP_FILE } from './shared-traits';
import type { OutputFormat } from './types';

/**
 * Lossy animated WebP with alpha, looping; method 3 is about twice as fast as the default 4 for a
 * few % more bytes.
 */
export const webp = {
  ...ANIMATED_IMAGE,
  ...WEBP_FILE,
  id: 'webp',
  label: 'Animated WebP',
  nativeOnly: true,
  studio: true,
  classicStatus: false,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    // libwebp rewrites the colour under fully transparent pixels itself (exact=0), so no clearing
    // here.
    branch: () => ({
      tail: convertTo('bgra'),
      encoder: webpAnimation(75, 3),
    }),
  },
} as const satisfies OutputFormat<'webp'>;
