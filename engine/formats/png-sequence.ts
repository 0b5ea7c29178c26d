import { clearTransparent } from './codecs';
import { PICTURE_FRAMES } from './shared-traits';
import type { OutputFormat } from './types';

/** Numbered RGBA PNGs (frame_000001.png, …) in a ZIP: what VFX tools import frame by frame. */
export const pngSequence = {
  ...PICTURE_FRAMES,
  id: 'png_sequence',
  label: 'PNG sequence (ZIP of RGBA frames)',
  extension: 'zip',
  contentType: 'application/zip',
  codec: 'png',
  container: 'zip',
  profile: 'image-sequence-alpha',
  nativeOnly: false,
  studio: true,
  classicStatus: true,
  cliDefault: false,
  encoding: {
    kind: 'steps',
    steps: (c) => {
      const dir = `${c.workDir}/frames`;
      const args = [
        ...c.inputs,
        '-filter_complex',
        [...c.graph, ...clearTransparent('t', 'v', 'rgba')].join(';'),
        '-map',
        '[v]',
        '-c:v',
        'png',
        '-compression_level',
        '3',
        ...c.outputArgs,
        '-f',
        'image2',
        '-start_number',
        '1',
        `${dir}/frame_%06d.png`,
      ];
      return { steps: [args], zip: { files: [], directory: dir } };
    },
  },
} as const satisfies OutputFormat<'png_sequence'>;
