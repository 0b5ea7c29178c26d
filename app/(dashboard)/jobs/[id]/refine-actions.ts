'use server';

import { revalidatePath } from 'next/cache';
import { requireUser } from '@/lib/auth/current-user';
import { textField } from '@/lib/auth/form-data';
import { RefineMaskRequest } from '@/lib/schemas/refinements';
import { activateVersion } from '@/lib/services/masks/activate-mask-version';
import { requestRefinement } from '@/lib/services/refinements/request-refinement';
import { actionFailure } from './action-failure';
import { defaultPorts } from '@/lib/services/ports';

export type RefineState = { ok: true; version: number } | { ok: false; error: string } | null;

/**
 * The job page's "Refine the mask": a text prompt, or points clicked on a frame (`mode` =
 * "points" with `time` and `points` as JSON), added to or taken out of the active mask, through
 * the same service and rules as POST /v1/jobs/{id}/refine-mask. The form carries the version
 * the user saw, so a change made meanwhile (another tab, the API) is a clear refusal.
 */
export async function refineAction(
  jobId: string,
  _prev: RefineState,
  form: FormData,
): Promise<RefineState> {
  const user = await requireUser(`/jobs/${jobId}`);
  const text = (name: string) => textField(form, name);
  try {
    const prompt =
      text('mode') === 'points'
        ? { mode: 'points', time: Number(text('time')), points: jsonOrNull(text('points')) }
        : { text: text('prompt') };
    const request = RefineMaskRequest.parse({
      op: text('op') || null,
      model: text('model') || null,
      prompt,
      edge_cleanup: form.get('edge_cleanup') ? { enabled: true, size: 512 } : null,
      from_version: text('from_version') ? Number(text('from_version')) : null,
    });
    const r = await requestRefinement(defaultPorts, user.id, jobId, request, null);
    revalidatePath(`/jobs/${jobId}`);
    return { ok: true, version: r.version };
  } catch (err) {
    return actionFailure(err);
  }
}

/** A form field's JSON, or null (which the schema then refuses with its message). */
function jsonOrNull(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

/** "Make active": the version later exports use by default. */
export async function activateAction(jobId: string, version: number): Promise<RefineState> {
  const user = await requireUser(`/jobs/${jobId}`);
  try {
    await activateVersion(defaultPorts, user.id, jobId, version);
    revalidatePath(`/jobs/${jobId}`);
    return { ok: true, version };
  } catch (err) {
    return actionFailure(err);
  }
}
