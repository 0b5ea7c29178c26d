import { evenDown } from './geometry';
import { MASK_ENCODER } from './types';

/**
 * Image-to-video (POST /v1/h3/image-to-video): a still is segmented once, and the still and its
 * mask are animated together by one camera move into a clip and its mask (one mask frame per
 * frame, as the segmenter writes them), so everything after segmentation treats the job as a
 * video. Pure argument builders; lib/services/jobs/segment-job.ts runs them.
 */

export const MOTIONS = ['none', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right', 'bounce'] as const;
export type Motion = (typeof MOTIONS)[number];

export const STILL_DEFAULTS = { durationSeconds: 3, fps: 24, motion: 'none' as Motion };
export const STILL_LIMITS = { minSeconds: 1, maxSeconds: 10, minFps: 12, maxFps: 30 };

/** The clip's frame: the still's size, its long side at most 1920, even. */
export function stillFrame(width: number, height: number): { width: number; height: number } {
  const s = Math.min(1, 1920 / Math.max(width, height));
  return { width: evenDown(width * s), height: evenDown(height * s) };
}

/** How far the camera zooms in for the moving shots. */
const ZOOM = 0.2;

/**
 * zoompan expressions for a move over `frames` frames (`on` is the frame index, p its progress
 * 0..1): zooms about the centre, pans across the zoomed frame, or bounces it twice vertically.
 */
export function motionExpressions(
  motion: Motion,
  frames: number,
): { z: string; x: string; y: string } {
  const p = `(on/${Math.max(1, frames - 1)})`;
  const centreX = 'iw/2-(iw/zoom/2)';
  const centreY = 'ih/2-(ih/zoom/2)';
  switch (motion) {
    case 'none':
      return { z: '1', x: '0', y: '0' };
    case 'zoom_in':
      return { z: `1+${ZOOM}*${p}`, x: centreX, y: centreY };
    case 'zoom_out':
      return { z: `${1 + ZOOM}-${ZOOM}*${p}`, x: centreX, y: centreY };
    case 'pan_left':
      return { z: String(1 + ZOOM), x: `(iw-iw/zoom)*(1-${p})`, y: centreY };
    case 'pan_right':
      return { z: String(1 + ZOOM), x: `(iw-iw/zoom)*${p}`, y: centreY };
    case 'bounce':
      return { z: String(1 + ZOOM), x: centreX, y: `(ih-ih/zoom)*(1-abs(sin(2*PI*${p})))` };
  }
}

export interface StillAnimation {
  /** ffmpeg input arguments of the still as one video frame (colour) and of its one-frame mask. */
  colourInput: string[];
  maskInput: string[];
  width: number;
  height: number;
  frames: number;
  fps: number;
  motion: Motion;
  /** The clip (H.264, high quality, Matroska) and its mask (FFV1 gray in Matroska). */
  clip: string;
  mask: string;
}

/**
 * One ffmpeg run: the still merged with its mask, moved by the camera, split into clip and mask.
 */
export function stillAnimationArgs(a: StillAnimation): string[] {
  const m = motionExpressions(a.motion, a.frames);
  const move =
    `zoompan=z='${m.z}':x='${m.x}':y='${m.y}':d=${a.frames}:` +
    `s=${a.width}x${a.height}:fps=${a.fps}`;
  const graph = [
    `[0:v]scale=${a.width}:${a.height},format=yuv444p[c]`,
    `[1:v]scale=${a.width}:${a.height},format=gray[m]`,
    `[c][m]alphamerge,format=yuva444p,${move},split[a][b]`,
    '[a]format=yuv420p[clip]',
    '[b]alphaextract,format=gray[mask]',
  ].join(';');
  return [
    ...a.colourInput,
    ...a.maskInput,
    '-filter_complex',
    graph,
    '-map',
    '[clip]',
    '-frames:v',
    String(a.frames),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '14',
    '-pix_fmt',
    'yuv420p',
    '-map_metadata',
    '-1',
    '-f',
    'matroska',
    a.clip,
    '-map',
    '[mask]',
    '-frames:v',
    String(a.frames),
    ...MASK_ENCODER,
    a.mask,
  ];
}
