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

interface Kept {
  session: Promise<InferenceSession>;
  /** Loads not yet released: the session is in use while this is above 0. */
  users: number;
}

/**
 * A runtime that loads each model once and hands the same session to every later load: a
 * session released by all its users stays loaded for the next video, until releaseIdle().
 */
export function keepingSessions(inner: ServedRuntime): ServedRuntime {
  const kept = new Map<string, Kept>();
  const keep = (key: string, m: ModelFile): Kept => {
    const entry: Kept = { session: inner.load(m), users: 0 };
    entry.session.catch(() => kept.delete(key));
    kept.set(key, entry);
    return entry;
  };
  return {
    get name() {
      return inner.name;
    },
    device: () => inner.device(),
    async load(m: ModelFile) {
      const key = `${m.id}:${m.file}`;
      const entry = kept.get(key) ?? keep(key, m);
      entry.users++;
      const session = await entry.session.catch((e: unknown) => {
        entry.users--;
        throw e;
      });
      let released = false;
      return {
        run: session.run.bind(session),
        inFlight: session.inFlight,
        release: () => {
          if (!released) entry.users--;
          released = true;
          return Promise.resolve();
        },
      };
    },
    async releaseIdle() {
      const idle = [...kept].filter(([, k]) => k.users === 0);
      for (const [key] of idle) kept.delete(key);
      await Promise.all(idle.map(([, k]) => k.session.then((s) => s.release())));
    },
  };
}
