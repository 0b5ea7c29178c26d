import { z } from 'zod';
import { API_MODELS } from '../../../engine/api-models';
import { MOTIONS } from '../../../engine/media/still';
import { jsonColumn } from '../../db/json-column';
import { Background, ExportItem } from '../../schemas/background';
import type { StillOptions } from '../../schemas/image-to-video';

/**
 * Job.stillJson: an image-to-video job's options, every default applied; null for a video job.
 * Written when the job is created (jobs/create-job.ts), read as its still arrives and when it
 * starts and segments; parsed on every read and written through this codec (lib/db/json-column.ts).
 */
export const stillColumn = jsonColumn(
  'Job.stillJson',
  z.object({
    durationSeconds: z.number(),
    fps: z.number(),
    motion: z.enum(MOTIONS),
    model: z.enum(API_MODELS),
    background: Background.nullable(),
    exports: z.array(ExportItem).nullable(),
  }) satisfies z.ZodType<StillOptions>,
);
