import { z } from './zod';

export const ErrorBody = z
  .object({
    error: z.string().openapi({ example: 'Job not found or does not belong to user' }),
    details: z.string().optional(),
  })
  .openapi('Error', {
    description: 'Every error: `error` is always a string, `details` is optional.',
  });

/** Path ids are not validated as UUIDs: anything not found is the same 404. */
export const JobIdParams = z.object({
  id: z.string().openapi({ description: 'Job id (uuid)', format: 'uuid' }),
});

/** ISO date-time text as the API shows it. */
export const DateTime = z.iso.datetime();

export const toIso = (d: Date) => d.toISOString();

/** A mask version a request names (1 is the segmentation's), or null for the active one. */
export const MaskVersionInput = (description: string) =>
  z.number().int().min(1).nullish().openapi({ description });
