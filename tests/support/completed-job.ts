import { runJobToCompletion, uploadedJob, type Stack } from '../integration/helpers';

/**
 * A job of `file` that was uploaded, started with `body` and completed within `timeoutMs`; throws
 * with the answer, or the failure and the stack's logs, otherwise.
 */
export async function completedJob(
  stack: Stack,
  key: string,
  file: string,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<string> {
  const id = await uploadedJob(stack, key, file);
  await runJobToCompletion(stack, key, id, body, { timeoutMs });
  return id;
}
