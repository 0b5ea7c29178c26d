import { expect } from 'vitest';
import { api, waitFor, type Stack } from '../integration/helpers';

/**
 * Polls GET `urlPath` (an export, a batch or a refinement) as its owner until it is no longer
 * queued or processing, and returns that record; every poll must answer 200.
 */
export function settled<T extends { status: string }>(
  stack: Stack,
  key: string,
  urlPath: string,
  { timeoutMs, intervalMs = 1_000 }: { timeoutMs: number; intervalMs?: number },
): Promise<T> {
  return waitFor(
    async () => {
      const r = await api<T>(stack, 'GET', urlPath, { key });
      expect(r.status, r.text).toBe(200);
      return ['queued', 'processing'].includes(r.body.status) ? undefined : r.body;
    },
    { timeoutMs, intervalMs, what: `${urlPath} to settle` },
  );
}
