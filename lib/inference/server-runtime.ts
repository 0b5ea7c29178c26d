import type { InferenceSession, ModelFile } from '../../engine/runtime';
import type { ServedRuntime } from './runtime-rpc';

let shared: ServedRuntime | null = null;

/**
 * One onnxruntime-node runtime per process whose sessions stay loaded between videos (ISNet
 * takes seconds to load). onnxruntime-node is imported lazily so the web process never loads it.
 */
export async function serverRuntime(): Promise<ServedRuntime> {
  if (shared) return shared;
  const { createOrtNodeRuntime } = await import('./ort-node-runtime');
  shared = keepingSessions(createOrtNodeRuntime());
  return shared;
}

/**
 * A runtime that loads each model once and hands the same session to every later load: sessions
 * are kept until the process exits, and release() is a no-op.
 */
export function keepingSessions(inner: ServedRuntime): ServedRuntime {
  const sessions = new Map<string, Promise<InferenceSession>>();
  return {
    get name() {
      return inner.name;
    },
    device: () => inner.device(),
    load(m: ModelFile) {
      const key = `${m.id}:${m.file}`;
      let s = sessions.get(key);
      if (!s) {
        s = inner.load(m).then((session) => ({
          run: session.run.bind(session),
          inFlight: session.inFlight,
          release: () => Promise.resolve(),
        }));
        s.catch(() => sessions.delete(key));
        sessions.set(key, s);
      }
      return s;
    },
  };
}
