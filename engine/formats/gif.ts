import { safeImageInputArgs } from '../media/input';
import { clearTransparent, GIF_ENCODER, gifPaletteGen, gifPaletteUse, singleImage } from './codecs';
import { ANIMATED_IMAGE, GIF_FILE } from './shared-traits';
import type { OutputFormat } from './types';

/**
 * GIF with one transparent palette entry (on/off transparency), looping. Two passes (palette,
 * then mapping) rather than a split, which would hold every frame in memory.
 */
export const gif = {
  ...ANIMATED_IMAGE,
  ...GIF_FILE,
  id: 'gif',
  label: 'GIF (hard edges)',
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
        [...c.graph, ...clearTransparent('t', 'k', 'rgba'), `[k]${gifPaletteGen(256)}[v]`].join(
          ';',
        ),
        '-map',
        '[v]',
        ...singleImage(),
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
          `[k][${paletteInput}:v]${gifPaletteUse(3)}[v]`,
        ].join(';'),
        '-map',
        '[v]',
        ...GIF_ENCODER,
        ...c.outputArgs,
        c.output,
      ];
      return { steps: [pass1, pass2] };
    },
  },
} as const satisfies OutputFormat<'gif'>;
