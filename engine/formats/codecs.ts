/**
 * Encoder settings shared by several formats, chosen for a good size/speed trade-off on small
 * CPU servers (measured with scripts/bench-outputs.ts; figures in docs/outputs.md).
 * VP9 without lookahead: at the realtime deadline libvpx encodes the same frames without it (decoded
 * bit-identical, alpha included) but holds 25 of them per encoder, 0.75 GB at 3840x2160 with
 * alpha's second encoder (docs/engine.md, "Job time").
 */
export const VP9_REALTIME = [
  '-deadline',
  'realtime',
  '-cpu-used',
  '8',
  '-row-mt',
  '1',
  '-lag-in-frames',
  '0',
];
/**
 * x264's speed presets a client may ask for (`composition.export_preset`), fastest first.
 * `placebo` is left out: several times slower than `veryslow` for no visible gain.
 */
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const;
export type X264Preset = (typeof X264_PRESETS)[number];
/**
 * How a Lottie's frames are embedded (`lottie_options.preset`): lossy WebP with lossless alpha
 * at three qualities, or PNG for a player that cannot decode WebP.
 */
export const LOTTIE_PRESETS = {
  balanced: { image: 'webp', quality: 75 },
  small: { image: 'webp', quality: 50 },
  quality: { image: 'webp', quality: 90 },
  png: { image: 'png', quality: 100 },
} as const;
export type LottiePreset = keyof typeof LOTTIE_PRESETS;

export const x264 = (crf: number, preset: X264Preset = 'veryfast') => [
  '-c:v',
  'libx264',
  '-preset',
  preset,
  '-crf',
  String(crf),
  '-pix_fmt',
  'yuv420p',
];
export const MP4_MUXER = ['-movflags', '+faststart', '-f', 'mp4'];
export const AAC = ['-c:a', 'aac', '-b:a', '128k'];
export const OPUS = ['-c:a', 'libopus', '-b:a', '96k'];
export const PCM = ['-c:a', 'pcm_s16le'];

/** H.264 MP4, AAC audio when asked. */
export const h264Mp4 = (audio: boolean, crf: number) => [
  ...x264(crf),
  ...(audio ? AAC : []),
  ...MP4_MUXER,
];

/**
 * GIF transparency is on or off: a pixel whose alpha is below this is transparent (paletteuse's
 * alpha_threshold), and the validator judges a GIF against its mask cut at the same value.
 */
export const GIF_ALPHA_THRESHOLD = 128;

export const clampCrf = (crf: number, max: number) => Math.min(max, Math.max(0, Math.round(crf)));

/**
 * Zeroes the colour of fully transparent pixels (kept where alpha > 0). Lossless formats then
 * spend nothing on the hidden background: a 720p APNG shrank about 14x in a test.
 */
export function clearTransparent(input: string, output: string, pixFmt: string): string[] {
  const id = `${input}_${output}`;
  return [
    `[${input}]format=gbrap,split[${id}x][${id}y]`,
    `[${id}y]alphaextract,split[${id}m][${id}m2]`,
    // The lut runs on the grey matte itself: left to negotiation it ran on gbrp and cut only one
    // of the three planes, so the other two were multiplied by alpha (premultiplied colour).
    `[${id}m2]format=gray,lut=c0='if(gt(val,0),255,0)',format=gbrp[${id}k]`,
    `[${id}x]format=gbrp[${id}c]`,
    `[${id}c][${id}k]blend=all_mode=multiply[${id}cc]`,
    `[${id}cc][${id}m]alphamerge,format=${pixFmt}[${output}]`,
  ];
}
