/**
 * Encoder settings shared by several formats, chosen for a good size/speed trade-off on small
 * CPU servers (measured with scripts/bench-outputs.ts; figures in docs/outputs.md).
 */

/**
 * VP9 at the realtime deadline, without lookahead: libvpx encodes the same frames without it
 * (decoded bit-identical, alpha included) but holds 25 of them per encoder, 0.75 GB at 3840x2160
 * with alpha's second encoder (docs/outputs.md, "4K").
 */
export const VP9_REALTIME = [
  ...['-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
  ...['-lag-in-frames', '0'],
];
/** Slower and smaller than realtime: affordable on sticker canvases. */
export const VP9_GOOD = ['-deadline', 'good', '-cpu-used', '4', '-row-mt', '1'];

/**
 * libvpx-vp9 at constant quality (crf with no bitrate cap). With alpha (yuva420p) the stream is
 * tagged alpha_mode=1, which the WebM muxer needs to keep the alpha.
 */
export function vp9ConstantQuality(
  pixFmt: 'yuv420p' | 'yuva420p',
  crf: number,
  speed: readonly string[] = VP9_REALTIME,
): string[] {
  return [
    ...['-c:v', 'libvpx-vp9', '-pix_fmt', pixFmt, ...speed, '-crf', String(crf), '-b:v', '0'],
    ...(pixFmt === 'yuva420p' ? ['-metadata:s:v:0', 'alpha_mode=1'] : []),
  ];
}

/**
 * prores_ks at a fixed quantiser instead of its rate search (about 5x faster and 2-3x smaller at
 * the same look), tagged as Apple's; `alphaBits` for 4444 with alpha.
 */
export function proresKs(profile: string, pixFmt: string, alphaBits?: number): string[] {
  return [
    ...['-c:v', 'prores_ks', '-profile:v', profile, '-pix_fmt', pixFmt, '-qscale:v', '9'],
    ...(alphaBits ? ['-alpha_bits', String(alphaBits)] : []),
    ...['-vendor', 'apl0'],
  ];
}

/** Lossy animated WebP with alpha, looping forever. */
export function webpAnimation(quality: number, compressionLevel: number): string[] {
  return [
    ...['-c:v', 'libwebp_anim', '-lossless', '0', '-quality', String(quality)],
    ...['-compression_level', String(compressionLevel), '-loop', '0', '-f', 'webp'],
  ];
}

/** A GIF looping forever. */
export const GIF_ENCODER = ['-c:v', 'gif', '-loop', '0', '-f', 'gif'];
/**
 * Output options of one picture written once to an image file (a palette, a poster, a thumbnail).
 */
export const singleImage = (encoder: string[] = []) => [
  ...['-frames:v', '1', ...encoder],
  ...['-update', '1', '-f', 'image2'],
];

/** A branch tail that only converts the picture to the encoder's pixel format. */
export const convertTo =
  (pixFmt: string) =>
  (input: string, output: string): string[] => [`[${input}]format=${pixFmt}[${output}]`];
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

/** A GIF's palette: `colours` entries and the transparent one, drawn from every frame. */
export const gifPaletteGen = (colours: number) =>
  `palettegen=max_colors=${colours}:reserve_transparent=1:stats_mode=full`;

/**
 * Mapping onto the palette: bayer dither (a coarser scale compresses better), alpha cut at the
 * threshold.
 */
export const gifPaletteUse = (bayerScale: number) =>
  `paletteuse=dither=bayer:bayer_scale=${bayerScale}:` +
  `diff_mode=rectangle:alpha_threshold=${GIF_ALPHA_THRESHOLD}`;

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
