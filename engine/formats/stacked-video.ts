import { h264Mp4 } from './codecs';
import type { EncodeBranch, EncodeContext, OutputFormat } from './types';

/**
 * Colour above, the matte below, in one opaque H.264 frame twice the height: alpha for players
 * without it.
 */
const stacked = (inverted: boolean) =>
  ({
    family: 'transparent',
    extension: 'mp4',
    contentType: 'video/mp4',
    codec: 'h264',
    container: 'mp4',
    profile: 'video-stacked-alpha',
    alpha: 'stacked',
    inverted,
    keepsAudio: true,
    loop: false,
    workingFormat: 'yuv420p',
    classicStatus: !inverted,
    cliDefault: false,
    encoding: {
      kind: 'branch',
      branch: ({ audio }: EncodeContext): EncodeBranch => ({
        tail: (i, o) => [
          `[${i}]split[${o}c0][${o}a0]`,
          `[${o}c0]format=yuv420p[${o}c]`,
          `[${o}a0]alphaextract${inverted ? ',negate' : ''},format=yuv420p[${o}a]`,
          `[${o}c][${o}a]vstack=inputs=2[${o}]`,
        ],
        encoder: h264Mp4(audio, 20),
      }),
    },
  }) as const;

export const stackedVideo = {
  id: 'stacked_video',
  label: 'Stacked MP4 (colour above, mask below)',
  nativeOnly: false,
  studio: false,
  ...stacked(false),
} as const satisfies OutputFormat<'stacked_video'>;

export const stackedVideoMaskInverted = {
  id: 'stacked_video_mask_inverted',
  label: 'Stacked MP4, mask inverted (white = background)',
  nativeOnly: true,
  studio: false,
  ...stacked(true),
} as const satisfies OutputFormat<'stacked_video_mask_inverted'>;
