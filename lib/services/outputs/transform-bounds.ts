import type { Transform } from '../../../engine/media/recipe';
import { ServiceError } from '../../errors';

export interface SourceBounds {
  width: number;
  height: number;
  /** Seconds. */
  duration: number;
}

/** The smallest picture an output may have (encoders need even sizes of at least 2). */
const MIN_SIDE = 2;

const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toPrecision(6));

/**
 * Refuses a transform that does not fit the uploaded video, before anything is charged: a crop
 * outside the frame (a crop of 1e308 used to pass, clamped silently), and a frame rate that
 * would leave the output without a single frame. `where` names the field in the message.
 */
export function assertTransformFits(
  transform: Transform | undefined,
  source: SourceBounds,
  where: string,
): void {
  const crop = transform?.crop;
  if (crop) {
    const { x, y, width, height } = crop;
    if (width < MIN_SIDE || height < MIN_SIDE) {
      throw new ServiceError(
        'invalid',
        `Invalid ${where}.crop: width and height must be at least ${MIN_SIDE} pixels`,
      );
    }
    if (x + width > source.width || y + height > source.height) {
      throw new ServiceError(
        'invalid',
        `Invalid ${where}.crop: it must lie inside the ${source.width}x${source.height} video`,
        `x + width = ${n(x + width)} (at most ${source.width}), y + ` +
          `height = ${n(y + height)} (at most ${source.height}).`,
      );
    }
  }
  if (transform?.fps && transform.fps * source.duration < 1) {
    throw new ServiceError(
      'invalid',
      `Invalid ${where}.fps: ${transform.fps} fps leaves a ` +
        `${source.duration.toFixed(2)} s video without a single frame`,
    );
  }
}

/** The bounds of a job's uploaded video, as its probe recorded them. */
export function sourceBounds(job: {
  width: number | null;
  height: number | null;
  lengthSeconds: number | null;
}): SourceBounds {
  return { width: job.width ?? 0, height: job.height ?? 0, duration: job.lengthSeconds ?? 0 };
}
