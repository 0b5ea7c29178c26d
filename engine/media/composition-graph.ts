import { safeImageInputArgs, safeInputArgs } from './input';
import { startFilters } from './normalize';
import type { CompositionTemplate } from './recipe';
import {
  backgroundInput,
  MATTE,
  PICTURE,
  SRC,
  type Composite,
  type CompositeContext,
} from './render-graph';
import { RenderPlanError, type RenderPlanInput } from './render-input';
import { templateLayout } from './composition-template';

/** A composition's composite: the foreground laid out by its template over the background file. */
export function compositionGraph(
  p: RenderPlanInput,
  template: CompositionTemplate,
  c: CompositeContext,
): Composite {
  const bg = p.background;
  if (!bg) throw new RenderPlanError('A composition needs a background file.');
  const layout = templateLayout(template, c.cropped, bg);
  const canvas = layout.canvas;
  const cover =
    `scale=${canvas.width}:${canvas.height}:` +
    'force_original_aspect_ratio=increase,' +
    `crop=${canvas.width}:${canvas.height},setsar=1,` +
    `format=${c.work}`;
  const rate = `fps=${p.info.fpsRational}`;
  const bgChain =
    bg.kind === 'image'
      ? // One decoded picture, scaled once, then repeated on the output's clock.
        `[${backgroundInput(p)}:v]${cover},loop=loop=-1:size=1,` +
        `setpts=N/(${p.info.fpsRational})/TB,${rate}[bg]`
      : `[${backgroundInput(p)}:v]${[...startFilters(bg.info), rate, cover].join(',')}[bg]`;
  const fgChain = [
    ...(layout.fg.width !== c.cropped.width || layout.fg.height !== c.cropped.height
      ? [`scale=${layout.fg.width}:${layout.fg.height}:flags=bicubic`]
      : []),
    ...(layout.opacity < 1 ? [`lut=a='val*${layout.opacity}'`] : []),
  ];
  return {
    inputs:
      bg.kind === 'image'
        ? safeImageInputArgs(bg.demuxer, bg.file)
        : ['-stream_loop', '-1', ...safeInputArgs(bg.info, bg.file, p.maxPixels)],
    filters: [
      `[${SRC}][${MATTE}]alphamerge,${[...c.crop, ...fgChain, c.alphaFmt].join(',')}[fg]`,
      bgChain,
      `[bg][fg]overlay=x=${layout.x}:y=${layout.y}:shortest=1:` +
        `format=${c.blend},${c.finish(canvas)}[${PICTURE}]`,
    ],
  };
}
