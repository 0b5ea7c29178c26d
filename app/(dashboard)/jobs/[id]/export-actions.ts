'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireUser } from '@/lib/auth/current-user';
import { ServiceError } from '@/lib/errors';
import { CreateBatchRequest } from '@/lib/schemas/exports';
import { createBatchExport } from '@/lib/services/outputs/exports';

export type AddExportsState = { ok: true; added: number } | { ok: false; error: string } | null;

/**
 * The job page's "Add export": one format at one or more sizes, as one batch (each size its own
 * render), through the same service and rules as POST /v1/jobs/{id}/batch-exports.
 */
export async function addExportsAction(
  jobId: string,
  _prev: AddExportsState,
  form: FormData,
): Promise<AddExportsState> {
  const user = await requireUser(`/jobs/${jobId}`);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const widths = text('widths')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (widths.some((w) => !Number.isInteger(w)))
    return { ok: false, error: 'Widths are whole numbers of pixels, separated by commas.' };
  const sizes = [...(form.get('native') ? ['native' as const] : []), ...widths];
  if (!sizes.length)
    return { ok: false, error: 'Choose the original size or give at least one width.' };
  const maskVersion = text('mask_version') ? Number(text('mask_version')) : null;
  try {
    const request = CreateBatchRequest.parse({
      exports: [{ format: text('format'), sizes }],
      mask_version: maskVersion,
    });
    const batch = await createBatchExport(user.id, jobId, request);
    revalidatePath(`/jobs/${jobId}`);
    return { ok: true, added: batch.total_exports };
  } catch (err) {
    if (err instanceof ServiceError)
      return { ok: false, error: err.details ? `${err.message}. ${err.details}` : err.message };
    if (err instanceof z.ZodError)
      return { ok: false, error: err.issues.map((i) => i.message).join('; ') };
    throw err;
  }
}
