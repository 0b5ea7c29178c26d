import { api, type Stack } from '../integration/helpers';

/**
 * POST /v1/jobs/{id}/start with service-light over a composition background, `composition` as the
 * public API takes it (template, background_url…); the answer, whatever its status.
 */
export function startComposition(
  stack: Stack,
  key: string,
  id: string,
  composition: Record<string, unknown>,
) {
  return api<{ error?: string; details?: string }>(stack, 'POST', `/v1/jobs/${id}/start`, {
    key,
    body: { model: 'service-light', background: { type: 'composition', composition } },
  });
}
