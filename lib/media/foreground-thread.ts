/**
 * The edge-colour thread (started by foreground-estimator.ts through foreground-thread.mjs):
 * estimates each frame it is sent in place and sends it back, so the estimate runs beside the
 * worker's main thread (segmentation's decode, refine and encode) instead of between its turns.
 */
import { parentPort } from 'node:worker_threads';
import { estimateForeground } from '../../engine/matte/foreground';
import type { EstimateReply, EstimateRequest } from './foreground-estimator';

const port = parentPort;
if (!port) throw new Error('foreground-thread.ts runs as a worker thread');
port.on('message', ({ id, frame, width, height }: EstimateRequest) => {
  let reply: EstimateReply;
  try {
    estimateForeground({ data: new Uint8Array(frame), width, height, layout: 'planar' });
    reply = { id, frame };
  } catch (e) {
    reply = { id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply, 'frame' in reply ? [reply.frame] : []);
});
