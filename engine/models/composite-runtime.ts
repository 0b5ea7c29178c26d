import type { FloatMap } from '../matte/image';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';

/** What a composite's `open` gives its serial session: the frame's answer and what it loaded. */
export interface CompositeParts {
  answer: (feeds: Record<string, TensorData>) => Promise<FloatMap>;
  sessions: readonly (InferenceSession | undefined)[];
}

/**
 * A composite model's session: `answer` runs on one frame at a time, in the order the frames
 * come (each starts from the state the one before left), its probability map returned as the
 * one output `output`; releasing it waits for the last run and releases the sessions it used.
 */
function serialSession({ answer, sessions }: CompositeParts, output: string): InferenceSession {
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

/**
 * A runtime whose one model is a composite over models of `runtime` (the subject stage, a
 * concept search, a clicked object): loading it runs `open`, which loads those models, and the
 * session answers one frame at a time (`serialSession`).
 */
export function compositeRuntime(
  label: string,
  runtime: InferenceRuntime,
  output: string,
  open: () => Promise<CompositeParts>,
): InferenceRuntime {
  return {
    name: `${label} over ${runtime.name}`,
    async load(): Promise<InferenceSession> {
      return serialSession(await open(), output);
    },
  };
}

/** A picture as R, G, B planes (0..255) of `width` × `height`. */
export interface RgbPicture {
  planes: Float32Array[];
  width: number;
  height: number;
}

/** A frame's R, G, B planes and size from its NCHW input tensor (views, no copy). */
export function rgbPlanes(t: TensorData): RgbPicture {
  const [, , height, width] = t.dims as [number, number, number, number];
  const n = width * height;
  return { planes: [0, 1, 2].map((c) => t.data.subarray(c * n, (c + 1) * n)), width, height };
}
