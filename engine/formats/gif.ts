import { safeImageInputArgs } from '../media/input';
import { clearTransparent, GIF_ALPHA_THRESHOLD } from './codecs';
import type { OutputFormat } from './types';

/**
 * GIF with one transparent palette entry (on/off transparency), looping. Two passes (palette,
 * then mapping) rather than a split, which would hold every frame in memory.
 */
export const gif = {
  id: 'gif',
  family: 'transparent',
  label: 'GIF (hard edges)',
  extension: 'gif',
  contentType: 'image/gif',
  codec: 'gif',
  container: 'gif',
  profile: 'animation-binary-alpha',
  alpha: 'binary',
  inverted: false,
  keepsAudio: false,
  loop: true,
  workingFormat: 'yuv444p',
  nativeOnly: false,
  studio: true,
  classicStatus: false,
  cliDefault: true,
  snapToGifRate: true,
  encoding: {
    kind: 'steps',
    steps: (c) => {
      const palette = `${c.workDir}/palette.png`;
      const pass1 = [
        ...c.inputs,
        '-filter_complex',
        [
          ...c.graph,
          ...clearTransparent('t', 'k', 'rgba'),
          '[k]palettegen=max_colors=256:reserve_transparent=1:stats_mode=full[v]',
        ].join(';'),
        '-map',
        '[v]',
        '-frames:v',
        '1',
        '-update',
        '1',
        '-f',
        'image2',
        palette,
      ];
      const paletteInput = c.inputs.filter((a) => a === '-i').length;
      const pass2 = [
        ...c.inputs,
        ...safeImageInputArgs('png_pipe', palette),
        '-filter_complex',
        [
          ...c.graph,
          ...clearTransparent('t', 'k', 'rgba'),
          `[k][${paletteInput}:v]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle:alpha_threshold=${GIF_ALPHA_THRESHOLD}[v]`,
        ].join(';'),
        '-map',
        '[v]',
        '-c:v',
        'gif',
        '-loop',
        '0',
        '-f',
        'gif',
        ...c.outputArgs,
        c.output,
      ];
      return { steps: [pass1, pass2] };
    },
  },
} as const satisfies OutputFormat<'gif'>;
