import { clearTransparent, LOTTIE_PRESETS } from './codecs';
import { PICTURE_FRAMES } from './shared-traits';
import type { LottieOptions, LottiePlan, OutputFormat, StepsContext } from './types';

export const DEFAULT_LOTTIE_OPTIONS: LottieOptions = {
  preset: 'balanced',
  smartSampling: true,
  threshold: null,
};

/** The hard alpha a threshold (0..1) asks for: opaque at or above it, transparent below. */
function alphaCut(threshold: number | null): string[] {
  return threshold === null ? [] : [`lut=a='if(gte(val,${Math.round(threshold * 255)}),255,0)'`];
}

function lottieSteps(c: StepsContext): { steps: string[][]; lottie: LottiePlan } {
  const o = c.lottie ?? DEFAULT_LOTTIE_OPTIONS;
  const preset = LOTTIE_PRESETS[o.preset];
  const dir = `${c.workDir}/frames`;
  const [num, den] = c.geometry.fpsRational.split('/');
  const timeBase = `${den ?? 1}/${num}`;
  // Each frame is named by its index (its pts at 1/fps); mpdecimate drops those barely different
  // from the last one kept. It runs on yuva444p, pinned: left to negotiation next to libwebp
  // (FFmpeg 5.1) it dropped nothing.
  const sampled = [...alphaCut(o.threshold), ...(o.smartSampling ? ['mpdecimate'] : [])];
  const index = [`settb=${timeBase}`, 'setpts=N', 'format=yuva444p', ...sampled, 'format=yuva420p'];
  const graph = [...c.graph, `[t]${index.join(',')}[i]`];
  const encoder =
    preset.image === 'webp'
      ? [...graph, '[i]null[v]'].join(';')
      : [...graph, ...clearTransparent('i', 'v', 'rgba')].join(';');
  const codec =
    preset.image === 'webp'
      ? [
          '-c:v',
          'libwebp',
          '-lossless',
          '0',
          '-quality',
          String(preset.quality),
          '-compression_level',
          '4',
        ]
      : ['-c:v', 'png'];
  const args = [
    ...c.inputs,
    '-filter_complex',
    encoder,
    '-map',
    '[v]',
    '-fps_mode',
    'passthrough',
    ...codec,
    '-enc_time_base',
    timeBase,
    ...c.outputArgs,
    '-frame_pts',
    '1',
    '-f',
    'image2',
    `${dir}/frame_%06d.${preset.image}`,
  ];
  const g = c.geometry;
  return {
    steps: [args],
    lottie: {
      directory: dir,
      image: preset.image,
      width: g.width,
      height: g.height,
      fps: g.fps,
      frames: g.frames,
    },
  };
}

/**
 * A Lottie (Bodymovin JSON, as lottie-web, lottie-ios, lottie-android and lottie-react-native
 * read it): every frame an embedded image with alpha, one image layer per frame shown for one
 * frame, or held while the picture barely changes (smart sampling).
 */
export const lottie = {
  ...PICTURE_FRAMES,
  id: 'lottie',
  label: 'Lottie (JSON, embedded frames)',
  extension: 'json',
  contentType: 'application/json',
  codec: 'lottie',
  container: 'lottie',
  profile: 'lottie-alpha',
  nativeOnly: false,
  studio: false,
  classicStatus: false,
  cliDefault: false,
  // Every frame is an embedded image: a minute of 720p is already tens of megabytes of JSON for a
  // player to hold.
  maxSeconds: 60,
  encoding: { kind: 'steps', steps: lottieSteps },
} as const satisfies OutputFormat<'lottie'>;
