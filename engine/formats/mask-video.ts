import { h264Mp4 } from './codecs';
import type { EncodeBranch, OutputFormat } from './types';

/** The matte itself as greyscale H.264 (white = subject, or inverted), for compositors. */
const maskVideo = (inverted: boolean) =>
  ({
    family: 'transparent',
    extension: 'mp4',
    contentType: 'video/mp4',
    codec: 'h264',
    container: 'mp4',
    profile: 'video-matte',
    alpha: 'matte',
    inverted,
    keepsAudio: false,
    loop: false,
    workingFormat: 'yuv420p',
    nativeOnly: true,
    studio: false,
    classicStatus: false,
    cliDefault: false,
    encoding: {
      kind: 'branch',
      branch: (): EncodeBranch => ({
        tail: (i, o) => [`[${i}]alphaextract${inverted ? ',negate' : ''},format=yuv420p[${o}]`],
        encoder: h264Mp4(false, 18),
      }),
    },
  }) as const;

export const maskVideoFormat = {
  id: 'mask_video',
  label: 'Mask only (black and white MP4)',
  ...maskVideo(false),
} as const satisfies OutputFormat<'mask_video'>;

export const maskVideoInverted = {
  id: 'mask_video_inverted',
  label: 'Mask only, inverted (white = background)',
  ...maskVideo(true),
} as const satisfies OutputFormat<'mask_video_inverted'>;
