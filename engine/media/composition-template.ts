import { croppedSize, evenDown, fitWidth, type OutputGeometry } from './geometry';
import type { CompositionTemplate } from './recipe';
import { RenderPlanError, type BackgroundInput } from './render-input';

/**
 * Where the foreground goes on the canvas.
 * - `full`: the canvas is the foreground's frame; the background covers it.
 * - `centered`: the canvas is the background's frame (long side at most 1920); the foreground is
 *   fitted inside it and centred.
 * - `ai_ugc_ad`: the background's canvas; the foreground is 35 % of its width, at the bottom-right
 *   corner, at 95 % opacity.
 */
export function templateLayout(
  template: CompositionTemplate,
  fg: { width: number; height: number },
  bg: BackgroundInput,
): {
  canvas: { width: number; height: number };
  fg: { width: number; height: number };
  x: number;
  y: number;
  opacity: number;
} {
  if (template === 'full') return { canvas: fg, fg, x: 0, y: 0, opacity: 1 };
  const bgSize = bg.kind === 'image' ? bg : bg.info;
  const scale = Math.min(1, 1920 / Math.max(bgSize.width, bgSize.height));
  const canvas = { width: evenDown(bgSize.width * scale), height: evenDown(bgSize.height * scale) };
  if (template === 'centered') {
    const s = Math.min(canvas.width / fg.width, canvas.height / fg.height);
    const size = { width: evenDown(fg.width * s), height: evenDown(fg.height * s) };
    return {
      canvas,
      fg: size,
      x: Math.floor((canvas.width - size.width) / 2),
      y: Math.floor((canvas.height - size.height) / 2),
      opacity: 1,
    };
  }
  const width = evenDown(canvas.width * 0.35);
  const height = Math.min(evenDown((fg.height * width) / fg.width), canvas.height);
  return {
    canvas,
    fg: { width, height },
    x: canvas.width - width,
    y: canvas.height - height,
    opacity: 0.95,
  };
}

/** The output of a composition: the template's canvas, fitted to `maxWidth`. */
export function compositionGeometry(
  fg: OutputGeometry,
  template: CompositionTemplate,
  bg: BackgroundInput | undefined,
  maxWidth: number | undefined,
  source: { width: number; height: number },
): OutputGeometry {
  if (template === 'full') return fg;
  if (!bg) throw new RenderPlanError('A composition needs a background file.');
  const { canvas } = templateLayout(template, croppedSize(fg, source), bg);
  return { ...fg, ...fitWidth(canvas.width, canvas.height, maxWidth) };
}
