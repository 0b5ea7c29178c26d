'use server';

import { revalidatePath } from 'next/cache';
import { requireUser } from '@/lib/auth/current-user';
import { textField } from '@/lib/auth/form-data';
import { CreateBatchRequest } from '@/lib/schemas/exports';
import { createBatchExport } from '@/lib/services/outputs/exports';
import { actionFailure } from './action-failure';
import { defaultPorts } from '@/lib/services/ports';

export type AddBatchState = { ok: true; added: number } | { ok: false; error: string } | null;

/** One batch through the same service and rules as POST /v1/jobs/{id}/batch-exports. */
async function addBatch(userId: string, jobId: string, request: unknown): Promise<AddBatchState> {
  try {
    const batch = await createBatchExport(
      defaultPorts,
      userId,
      jobId,
      CreateBatchRequest.parse(request),
    );
    revalidatePath(`/jobs/${jobId}`);
    return { ok: true, added: batch.total_exports };
  } catch (err) {
    return actionFailure(err);
  }
}

/** The job page's "Add export": one format at one or more sizes, each size its own render. */
export async function addExportsAction(
  jobId: string,
  _prev: AddBatchState,
  form: FormData,
): Promise<AddBatchState> {
  const user = await requireUser(`/jobs/${jobId}`);
  const widths = textField(form, 'widths')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (widths.some((w) => !Number.isInteger(w)))
    return { ok: false, error: 'Widths are whole numbers of pixels, separated by commas.' };
  const sizes = [...(form.get('native') ? ['native' as const] : []), ...widths];
  if (!sizes.length)
    return { ok: false, error: 'Choose the original size or give at least one width.' };
  const maskVersion = textField(form, 'mask_version');
  return addBatch(user.id, jobId, {
    exports: [{ format: textField(form, 'format'), sizes }],
    mask_version: maskVersion ? Number(maskVersion) : null,
  });
}

/** The Stickers panel: the platforms picked, as one batch. */
export async function addStickersAction(
  jobId: string,
  _prev: AddBatchState,
  form: FormData,
): Promise<AddBatchState> {
  const user = await requireUser(`/jobs/${jobId}`);
  const formats = form.getAll('format').filter((f): f is string => typeof f === 'string');
  if (!formats.length) return { ok: false, error: 'Pick at least one platform.' };
  return addBatch(user.id, jobId, { exports: formats.map((format) => ({ format })) });
}
