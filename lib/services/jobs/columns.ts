import { z } from 'zod';
import { ALLOWED_DEMUXERS, type MediaInfo } from '../../../engine/media/types';
import { jsonColumn } from '../../db/json-column';
import { StoredBackground } from '../../schemas/background';

/**
 * The Job's JSON columns, one codec each (Job.stillJson's is the uploads wing's): what each holds,
 * parsed on every read and written through the same codec (lib/db/json-column.ts).
 */

/**
 * Job.mediaJson: the worker's full probe of the original (engine MediaInfo), read by every render.
 */
export const mediaColumn = jsonColumn(
  'Job.mediaJson',
  z.object({
    demuxer: z.enum(ALLOWED_DEMUXERS),
    container: z.enum(['mp4', 'mov', 'm4v', 'webm', 'mkv', 'avi']),
    width: z.number(),
    height: z.number(),
    codedWidth: z.number(),
    codedHeight: z.number(),
    rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
    fps: z.number(),
    fpsRational: z.string(),
    variableFrameRate: z.boolean(),
    duration: z.number(),
    frameCount: z.number(),
    videoCodec: z.string(),
    pixFmt: z.string(),
    hasAudio: z.boolean(),
    audioCodec: z.string().nullable(),
    sizeBytes: z.number(),
  }) satisfies z.ZodType<MediaInfo>,
);

/**
 * Job.backgroundJson: the start's background (with Job.model, the started request:
 * started-request.ts).
 */
export const backgroundColumn = jsonColumn('Job.backgroundJson', StoredBackground);

export const PROGRESS_STAGES = [
  'probe',
  'fetch-background',
  'segment',
  'render',
  'exports',
  'thumbnails',
  'finishing',
] as const;

/** A progress field reads as null unless it holds what the writer puts there. */
const number = z.number().nullable().catch(null);
/**
 * The same for a field the writer may leave out (and rows written before it existed): absent reads
 * as null.
 */
const optionalNumber = z
  .number()
  .nullish()
  .transform((v) => v ?? null)
  .catch(null);

/** Job.progressJson: where a running job is (written by ProgressWriter, progress.ts). */
export const progressColumn = jsonColumn(
  'Job.progressJson',
  z.object({
    stage: z.enum(PROGRESS_STAGES).nullable().catch(null),
    framesDone: number,
    framesTotal: number,
    fps: number,
    etaSeconds: number,
    // Absent until the first preview is stored.
    previewFrame: optionalNumber,
  }),
);
