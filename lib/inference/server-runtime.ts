import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession } from '../../engine/runtime';

let shared: InferenceRuntime | null = null;

/**
 * One onnxruntime-node runtime per process whose sessions stay loaded between videos (ISNet
 * takes seconds to load). Sessions are kept until the process exits; release() is a no-op.
 * onnxruntime-node is imported lazily so the web process never loads it.
 */
export async function serverRuntime(): Promise<InferenceRuntime> {
  if (shared) return shared;
  const { createOrtNodeRuntime } = await import('./ort-node-runtime');
  const inner = createOrtNodeRuntime();
  const sessions = new Map<string, Promise<InferenceSession>>();
  shared = {
    name: inner.name,
    load(m: ModelManifest) {
      const key = `${m.id}:${m.file}`;
      let s = sessions.get(key);
      if (!s) {
        s = inner.load(m).then((session) => ({ run: session.run.bind(session), inFlight: session.inFlight, release: () => Promise.resolve() }));
        s.catch(() => sessions.delete(key));
        sessions.set(key, s);
      }
      return s;
    },
  };
  return shared;
}
