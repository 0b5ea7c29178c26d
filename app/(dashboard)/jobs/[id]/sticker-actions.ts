'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireUser } from '@/lib/auth/current-user';
import { ServiceError } from '@/lib/errors';
import { CreateBatchRequest } from '@/lib/schemas/exports';
import { createBatchExport } from '@/lib/services/outputs/exports';

export type AddStickersState = { ok: true; added: number } | { ok: false; error: string } | null;

/** The Stickers panel: the platforms picked, as one batch through POST /v1/jobs/{id}/batch-exports' service and rules. */
export async function addStickersAction(
  jobId: string,
  _prev: AddStickersState,
  form: FormData,
): Promise<AddStickersState> {
  const user = await requireUser(`/jobs/${jobId}`);
  const formats = form.getAll('format').filter((f): f is string => typeof f === 'string');
  if (!formats.length) return { ok: false, error: 'Pick at least one platform.' };
  try {
    const batch = await createBatchExport(
      user.id,
      jobId,
      CreateBatchRequest.parse({ exports: formats.map((format) => ({ format })) }),
    );
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
