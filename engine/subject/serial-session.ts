import type { FloatMap } from '../matte/image';
import type { InferenceSession, TensorData } from '../runtime';

/**
 * A composite model's session: `answer` runs on one frame at a time, in the order the frames
 * come (each starts from the state the one before left), its probability map returned as the
 * one output `output`; releasing it waits for the last run and releases the sessions it used.
 */
export function serialSession(
  answer: (feeds: Record<string, TensorData>) => Promise<FloatMap>,
  output: string,
  sessions: readonly (InferenceSession | undefined)[],
): InferenceSession {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    inFlight: 1,
    run(feeds) {
      const result = queue.then(() => answer(feeds));
      queue = result.catch(() => undefined);
      return result.then((p) => ({ [output]: { data: p.data, dims: [1, 1, p.height, p.width] } }));
    },
    async release() {
      await queue;
      await Promise.all(sessions.map((s) => s?.release() ?? Promise.resolve()));
    },
  };
}
