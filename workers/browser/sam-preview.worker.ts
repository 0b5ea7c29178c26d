/// <reference lib="webworker" />
/**
 * The job page's click preview: SAM (the same encoder and decoder the worker follows the
 * clicked object with) in the browser on onnxruntime-web's WASM build. The picture is encoded
 * once when a frame is picked; each set of clicks is then a light decoder run. Nothing leaves
 * the browser and nothing is charged.
 */
import { SAM_DECODER, SAM_ENCODER } from '../../engine/prompts/models';
import { SAM_IO, samDecoderFeeds, samEmbedding, samMask } from '../../engine/prompts/sam';
import type { InferenceSession, TensorData } from '../../engine/runtime';
import { createOrtWebRuntime } from './ort-web-runtime';
import type { FromSamWorker, ToSamWorker } from './sam-preview-protocol';

declare const self: DedicatedWorkerGlobalScope;

let sessions: Promise<{ encoder: InferenceSession; decoder: InferenceSession }> | null = null;
let picture: { embedding: TensorData; width: number; height: number } | null = null;
// One request at a time: a decode must see the picture encoded before it.
let queue: Promise<void> = Promise.resolve();

const post = (msg: FromSamWorker, transfer: Transferable[] = []) => self.postMessage(msg, transfer);

function load() {
  sessions ??= (async () => {
    const runtime = createOrtWebRuntime({
      modelBaseUrl: '/models/',
      wasmPaths: '/vendor/ort/',
      threads: 1,
    });
    const [encoder, decoder] = await Promise.all([
      runtime.load(SAM_ENCODER),
      runtime.load(SAM_DECODER),
    ]);
    return { encoder, decoder };
  })();
  return sessions;
}

async function handle(msg: ToSamWorker): Promise<void> {
  const s = await load();
  if (msg.type === 'encode') {
    const { width, height } = msg;
    const rgba = new Uint8Array(msg.rgba);
    const planes = [0, 1, 2].map((c) =>
      Float32Array.from({ length: width * height }, (_, i) => rgba[i * 4 + c]!),
    );
    const t0 = performance.now();
    picture = { embedding: await samEmbedding(s.encoder, planes, width, height), width, height };
    post({ type: 'encoded', id: msg.id, ms: performance.now() - t0 });
    return;
  }
  if (!picture) throw new Error('No picture is encoded yet');
  const { embedding, width, height } = picture;
  const t0 = performance.now();
  const feeds = {
    image_embeddings: { data: embedding.data.slice(), dims: embedding.dims },
    ...samDecoderFeeds({ points: msg.points }, width, height),
  };
  const res = await s.decoder.run(feeds, SAM_IO.decoderOutputs);
  const prob = samMask(res.low_res_masks!, width, height);
  const alpha = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = prob.data[i]! >= 0.5 ? 255 : 0;
  post(
    { type: 'mask', id: msg.id, width, height, alpha: alpha.buffer, ms: performance.now() - t0 },
    [alpha.buffer],
  );
}

self.onmessage = (e: MessageEvent<ToSamWorker>) => {
  const msg = e.data;
  queue = queue
    .then(() => handle(msg))
    .catch((err: unknown) =>
      post({
        type: 'error',
        id: msg.id,
        message: err instanceof Error ? err.message : String(err),
      }),
    );
};
