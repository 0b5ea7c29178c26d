import { z } from './zod';

export const ErrorBody = z
  .object({
    error: z.string().openapi({ example: 'Job not found or does not belong to user' }),
    details: z.string().optional(),
  })
  .openapi('Error', { description: 'Every error: `error` is always a string, `details` is optional.' });

export const JobIdParams = z.object({
  id: z.uuid({ error: 'Job not found or does not belong to user' }).openapi({ description: 'Job id' }),
});

/** ISO date-time text as the API shows it. */
export const DateTime = z.iso.datetime();

export const toIso = (d: Date) => d.toISOString();
