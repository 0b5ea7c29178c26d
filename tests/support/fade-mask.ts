import { MASK_ENCODER } from '../../engine/media/types';
import { fromLavfi } from '../../lib/media/fixtures';

/**
 * A mask video in the segmenter's format (MASK_ENCODER) whose every frame is white left of
 * column `from`, black from column `to` on, with a straight fade between (pixel x's alpha is
 * (to - x - 0.5) / (to - from)): a soft edge whose colour the tests can predict.
 */
export function fadeMask(
  file: string,
  o: { width: number; height: number; seconds: number; from: number; to: number },
): Promise<string> {
  const ramp = `geq=lum='clip((${o.to}-X-0.5)*255/${o.to - o.from}\\,0\\,255)'`;
  const black = `color=black:s=${o.width}x${o.height}:r=25:d=${o.seconds}`;
  return fromLavfi(file, `${black},format=gray,${ramp}`, MASK_ENCODER);
}
