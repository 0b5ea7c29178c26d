/**
 * An InferenceRuntime served on one thread and used from another: the server's inference
 * thread (lib/inference/ort-thread.ts) serves one, and the worker process's main thread uses
 * it through `remoteRuntime`. The model computes over there while the engine prepares and
 * finishes other frames here (sessions report `inFlight: 1`).
 */
import type {
  InferenceRuntime,
  InferenceSession,
  ModelFile,
  TensorData,
} from '../../engine/runtime';
import type { DeviceChoice } from './device';

/** A session as the serving side loads it: with the keyframes it takes per run (batching.ts). */
export interface ServedSession extends InferenceSession {
  batch?: number;
}

/** What the inference thread serves: a runtime that also says which device it chose. */
export interface ServedRuntime extends InferenceRuntime {
  /** Says the device once it is chosen: "onnxruntime-node (webgpu)". */
  name: string;
  /** The device the models run on; rejects when the one asked for is not there. */
  device(): Promise<DeviceChoice>;
  load(model: ModelFile): Promise<ServedSession>;
}

export type RuntimeRequest =
  | { type: 'device'; id: number }
  | { type: 'load'; id: number; manifest: ModelFile }
  | {
      type: 'run';
      id: number;
      session: number;
      feeds: Record<string, TensorData>;
      outputs: readonly string[];
    }
  | { type: 'release'; id: number; session: number };

export type RuntimeReply =
  | {
      id: number;
      ok: true;
      session?: number;
      runtime?: string;
      batch?: number;
      device?: DeviceChoice;
      outputs?: Record<string, TensorData>;
    }
  | { id: number; ok: false; message: string };

/** One end of a message channel (a worker thread's port), as its side sees it. */
export interface Channel<In, Out> {
  post(msg: Out, transfer: ArrayBuffer[]): void;
  listen(onMessage: (msg: In) => void): void;
}

const buffersOf = (tensors: Record<string, TensorData>) =>
  Object.values(tensors).map((t) => t.data.buffer as ArrayBuffer);

/** Answers load/run/release requests with `runtime`, one at a time and in order. */
export function serveRuntime(
  runtime: ServedRuntime,
  channel: Channel<RuntimeRequest, RuntimeReply>,
): void {
  const sessions = new Map<number, InferenceSession>();
  let nextSession = 1;
  const sessionOf = (id: number) => {
    const s = sessions.get(id);
    if (!s) throw new Error('The model session was released');
    return s;
  };
  async function handle(req: RuntimeRequest): Promise<void> {
    try {
      switch (req.type) {
        case 'device':
          channel.post(
            { id: req.id, ok: true, device: await runtime.device(), runtime: runtime.name },
            [],
          );
          return;
        case 'load': {
          const id = nextSession++;
          const session = await runtime.load(req.manifest);
          sessions.set(id, session);
          channel.post(
            { id: req.id, ok: true, session: id, runtime: runtime.name, batch: session.batch },
            [],
          );
          return;
        }
        case 'run': {
          const outputs = await sessionOf(req.session).run(req.feeds, req.outputs);
          channel.post({ id: req.id, ok: true, outputs }, buffersOf(outputs));
          return;
        }
        case 'release':
          await sessionOf(req.session).release();
          sessions.delete(req.session);
          channel.post({ id: req.id, ok: true }, []);
          return;
      }
    } catch (err) {
      channel.post({ id: req.id, ok: false, message: (err as Error).message || String(err) }, []);
    }
  }
  // A run keeps this thread busy anyway: handling requests in order keeps replies in order.
  let queue = Promise.resolve();
  channel.listen((req) => {
    queue = queue.then(() => handle(req));
  });
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface RemoteRuntime extends ServedRuntime {
  /** Fails every outstanding and later request with this error (the other side died). */
  fail(err: Error): void;
}

/**
 * The client side. `busy` is told when requests start and stop being outstanding (so an idle
 * worker thread does not hold the process open).
 */
export function remoteRuntime(
  channel: Channel<RuntimeReply, RuntimeRequest>,
  busy: (outstanding: boolean) => void = () => undefined,
): RemoteRuntime {
  const waiting = new Map<
    number,
    { resolve: (r: RuntimeReply & { ok: true }) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  let dead: Error | null = null;
  channel.listen((msg) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (!waiting.size) busy(false);
    if (msg.ok) w.resolve(msg);
    else w.reject(new Error(msg.message));
  });
  const call = (req: WithoutId<RuntimeRequest>, transfer: ArrayBuffer[] = []) => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<RuntimeReply & { ok: true }>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      if (waiting.size === 1) busy(true);
      channel.post({ ...req, id }, transfer);
    });
  };
  const runtime: RemoteRuntime = {
    name: 'remote',
    async device() {
      const reply = await call({ type: 'device' });
      runtime.name = reply.runtime ?? runtime.name;
      return reply.device!;
    },
    async load(manifest: ModelFile): Promise<ServedSession> {
      const reply = await call({ type: 'load', manifest });
      const session = reply.session!;
      runtime.name = reply.runtime ?? runtime.name;
      return {
        batch: reply.batch,
        inFlight: 1,
        async run(feeds, outputs) {
          return (
            (await call({ type: 'run', session, feeds, outputs }, buffersOf(feeds))).outputs ?? {}
          );
        },
        release: async () => {
          await call({ type: 'release', session });
        },
      };
    },
    fail(err: Error) {
      dead ??= err;
      for (const w of waiting.values()) w.reject(err);
      if (waiting.size) busy(false);
      waiting.clear();
    },
  };
  return runtime;
}
