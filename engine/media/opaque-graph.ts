import { blurGraph } from './blur-graph';
import { compositionGraph } from './composition-graph';
import { normalizeFilters } from './normalize';
import { cropFilters, croppedSize, finishFilters, type OutputGeometry } from './geometry';
import {
  MATTE,
  PICTURE,
  SRC,
  withAlpha,
  workingFormat,
  type Composite,
  type CompositeContext,
} from './render-graph';
import type { Blur } from './recipe';
import { RenderPlanError, type RenderPlanInput } from './render-input';

/**
 * The picture of an opaque recipe (colour, blur, composition) as [t]: the cut-out over its
 * background.
 */
export function opaqueGraph(
  p: RenderPlanInput,
  fg: OutputGeometry,
  out: OutputGeometry,
): Composite {
  const recipe = p.recipe;
  const work = workingFormat(recipe);
  const c: CompositeContext = {
    work,
    alphaFmt: withAlpha(work),
    blend: work === 'yuv420p' ? 'yuv420' : 'yuv444',
    cropped: croppedSize(fg, p.info),
    crop: cropFilters(fg),
    // The format's own conversion follows [t] (engine/formats).
    finish: (current) => [...finishFilters(out, current), `format=${work}`].join(','),
  };
  switch (recipe.kind) {
    case 'color':
      return colorGraph(recipe.color, p.info.fpsRational, c);
    case 'blur':
      return p.piped ? filmedBlur(p, recipe.blur, c) : blurGraph(recipe.blur, c);
    case 'composition':
      return compositionGraph(p, recipe.template, c);
    case 'transparent':
      throw new Error('unreachable');
  }
}

/**
 * A blur whose [src] comes piped with the estimated edge colour: the source, input 0, is decoded
 * again onto the timeline as it was filmed, for the blurred layer.
 */
function filmedBlur(p: RenderPlanInput, blur: Blur, c: CompositeContext): Composite {
  const g = blurGraph(blur, c, 'filmed');
  return {
    inputs: g.inputs,
    filters: [
      `[0:v]${[...normalizeFilters(p.info), `format=${c.work}`].join(',')}[filmed]`,
      ...g.filters,
    ],
  };
}

/** The cut-out over a plain colour the size of the cropped frame. */
function colorGraph(color: string, fpsRational: string, c: CompositeContext): Composite {
  const cropChain = c.crop.length ? ',' + c.crop.join(',') : '';
  const size = `${c.cropped.width}x${c.cropped.height}`;
  return {
    inputs: [],
    filters: [
      `[${SRC}][${MATTE}]alphamerge${cropChain},${c.alphaFmt}[fg]`,
      `color=c=${parseColor(color)}:s=${size}:r=${fpsRational},format=${c.work}[bg]`,
      `[bg][fg]overlay=shortest=1:format=${c.blend},${c.finish(c.cropped)}[${PICTURE}]`,
    ],
  };
}

/**
 * `#RRGGBB` or `#RRGGBBAA` → an ffmpeg colour. The outputs that take a colour are opaque video,
 * so a colour with alpha is flattened over black: #FFFFFF80 becomes #808080.
 */
export function parseColor(hex: string): string {
  const m = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m?.[1])
    throw new RenderPlanError(`Invalid background colour "${hex}": use #RRGGBB or #RRGGBBAA.`);
  const rgb = m[1];
  const a = m[2] ? parseInt(m[2], 16) / 255 : 1;
  const channels = [0, 2, 4].map((i) => Math.round(parseInt(rgb.slice(i, i + 2), 16) * a));
  return (
    '0x' +
    channels
      .map((c) => c.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()
  );
}
