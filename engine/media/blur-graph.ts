import type { Blur } from './recipe';
import { MATTE, PICTURE, SRC, type Composite, type CompositeContext } from './render-graph';

/**
 * A blur recipe's composite. Mode `background`: the sharp subject over a blurred frame; mode
 * `subject`: the blurred subject over the sharp frame. With `filmed` (the label of the source's
 * colour as filmed, when [src] carries the estimated edge colour: lib/media/foreground.ts), the
 * frame that is blurred is the filmed one, so the subject's colour does not glow into it.
 */
export function blurGraph(b: Blur, c: CompositeContext, filmed: string | null = null): Composite {
  const blur = blurFilter(b, c.cropped);
  const subjectBlurred = b.mode === 'subject';
  const cropPrefix = c.crop.length ? c.crop.join(',') + ',' : '';
  const layers = filmed
    ? [`[${SRC}]${cropPrefix}null[sharp]`, `[${filmed}]${cropPrefix}split[toblur][plain]`]
    : [`[${SRC}]${cropPrefix}split=3[sharp][toblur][plain]`];
  return {
    inputs: [],
    filters: [
      ...layers,
      `[${MATTE}]${cropPrefix}split[m][side]`,
      ...ownSideBlur(blur, subjectBlurred, c.alphaFmt, c.blend),
      `[${subjectBlurred ? 'blurred' : 'sharp'}][m]alphamerge,${c.alphaFmt}[fg]`,
      `[${subjectBlurred ? 'sharp' : 'blurred'}][fg]overlay=shortest=1:` +
        `format=${c.blend},${c.finish(c.cropped)}[${PICTURE}]`,
    ],
  };
}

/**
 * Blur strength: intensity 0..100 maps linearly to a radius of 0..5 % of the frame's shorter
 * side (36 px at 720p). `gaussian` uses that radius as the Gaussian sigma; `box` uses it as the
 * radius of a box blur applied twice (close to a Gaussian, cheaper). Intensity 0 leaves the
 * region sharp.
 */
export function blurRadius(intensity: number, size: { width: number; height: number }): number {
  const i = Math.min(100, Math.max(0, intensity));
  if (i === 0) return 0;
  return Math.max(1, Math.round((i / 100) * 0.05 * Math.min(size.width, size.height)));
}

/**
 * `[toblur]` blurred from its own side of the matte only (`[side]`: the matte; the subject's side
 * when `subject`, else the background's), as `[blurred]`: blur(colour × weight) / blur(weight).
 * A plain blur of the whole frame makes a bright subject glow into the blurred background around
 * it (and the background bleed into a blurred subject). Where the weight's blur is under 1/8
 * (lut clips val*8 to 255) the division only amplifies rounding; that is deep inside the other
 * side, which covers it, so the frame as it is (`[plain]`) shows there: through a hole in the
 * subject's matte, the subject itself rather than a blur of it.
 */
function ownSideBlur(blur: string, subject: boolean, alphaFmt: string, blend: string): string[] {
  if (blur === 'null') return ['[toblur]null[blurred]', '[plain]nullsink', '[side]nullsink'];
  return [
    `[side]${subject ? 'null' : 'negate'}[weight]`,
    `[toblur]${alphaFmt}[tw]`,
    `[tw][weight]alphamerge,premultiply=inplace=1,${blur},unpremultiply=inplace=1,lut=a=val*8[own]`,
    `[plain][own]overlay=format=${blend}[blurred]`,
  ];
}

function blurFilter(blur: Blur, size: { width: number; height: number }): string {
  const r = blurRadius(blur.intensity, size);
  if (r === 0) return 'null';
  return blur.type === 'box' ? `boxblur=luma_radius=${r}:luma_power=2` : `gblur=sigma=${r}`;
}
