import { convertTo, OPUS, vp9ConstantQuality } from './codecs';
import { ALPHA_VIDEO, WEBM_VP9_ALPHA_FILE } from './shared-traits';
import type { OutputFormat } from './types';

/** VP9 with alpha (yuva420p; the WebM muxer writes alpha_mode=1) + Opus: what browsers play. */
export const webmVp9 = {
  ...ALPHA_VIDEO,
  ...WEBM_VP9_ALPHA_FILE,
  id: 'webm_vp9',
  label: 'WebM (VP9 with alpha) — web and most editors',
  workingFormat: 'yuv420p',
  classicStatus: true,
  cliDefault: true,
  encoding: {
    kind: 'branch',
    branch: ({ audio }) => ({
      tail: convertTo('yuva420p'),
      encoder: [...vp9ConstantQuality('yuva420p', 30), ...(audio ? OPUS : []), '-f', 'webm'],
    }),
  },
} as const satisfies OutputFormat<'webm_vp9'>;
