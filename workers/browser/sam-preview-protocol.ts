/**
 * Messages between the job page (sam-preview.ts) and the SAM preview worker
 * (sam-preview.worker.ts).
 */
import type { SamPoint } from '../../engine/prompts/sam';

export type ToSamWorker =
  /** The picked frame, RGBA at `width` × `height` (transferred). */
  | { type: 'encode'; id: number; rgba: ArrayBuffer; width: number; height: number }
  /** Clicks in the encoded picture's pixels. */
  | { type: 'decode'; id: number; points: SamPoint[] };

export type FromSamWorker =
  | { type: 'encoded'; id: number; ms: number }
  /** The object's mask over the picture: 255 where it is, 0 elsewhere (transferred). */
  | { type: 'mask'; id: number; width: number; height: number; alpha: ArrayBuffer; ms: number }
  | { type: 'error'; id: number; message: string };
