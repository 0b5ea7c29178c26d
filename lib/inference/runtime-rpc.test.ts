import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SELFIE } from '../../engine/models/catalog';
import type { TensorData } from '../../engine/runtime';
import {
  remoteRuntime,
  serveRuntime,
  type RuntimeReply,
  type RuntimeRequest,
  type ServedRuntime,
} from './runtime-rpc';

/**
 * A stand-in model that doubles its input, slower for the first request, failing on NaN; on a CPU,
 * two keyframes a run.
 */
const doubler: ServedRuntime = {
  name: 'doubler',
  device: () =>
    Promise.resolve({
      device: 'cpu',
      adapter: 'CPU, 1 thread',
      notChosen: { webgpu: 'No supported adapters' },
    }),
  load: () =>
    Promise.resolve({
      batch: 2,
      async run(feeds) {
        const x = feeds.x!;
        if (Number.isNaN(x.data[0])) throw new Error('bad input');
        await new Promise((r) => setTimeout(r, x.data[0] === 1 ? 20 : 1));
        return { y: { data: x.data.map((v) => v * 2), dims: x.dims } satisfies TensorData };
      },
      release: () => Promise.resolve(),
    }),
};

function connect(runtime: ServedRuntime) {
  const { port1, port2 } = new MessageChannel();
  serveRuntime(runtime, {
    post: (msg: RuntimeReply, transfer) => port1.postMessage(msg, transfer),
    listen: (on: (msg: RuntimeRequest) => void) => port1.on('message', on),
  });
  const busy: boolean[] = [];
  const remote = remoteRuntime(
    {
      post: (msg: RuntimeRequest, transfer) => port2.postMessage(msg, transfer),
      listen: (on: (msg: RuntimeReply) => void) => port2.on('message', on),
    },
    (b) => busy.push(b),
  );
  return { remote, busy, close: () => (port1.close(), port2.close()) };
}

const feed = (v: number) => ({ x: { data: Float32Array.of(v, v), dims: [1, 2] } });

describe('runtime over a message channel', () => {
  it(
    'answers concurrent runs in order, transfers buffers, and fails ' + 'only the bad run',
    async () => {
      const { remote, busy, close } = connect(doubler);
      const session = await remote.load(SELFIE);
      expect(remote.name).toBe('doubler');
      expect(session.inFlight).toBe(1);
      expect(session.batch).toBe(2);
      const input = feed(1);
      const runs = [
        session.run(input, ['y']),
        session.run(feed(Number.NaN), ['y']),
        session.run(feed(3), ['y']),
      ];
      // The caller's buffer went to the other side.
      expect(input.x.data.length).toBe(0);
      const values = (out: Record<string, TensorData>) => Array.from(out.y!.data);
      await expect(runs[0]!.then(values)).resolves.toEqual([2, 2]);
      await expect(runs[1]!).rejects.toThrow('bad input');
      await expect(runs[2]!.then(values)).resolves.toEqual([6, 6]);
      await session.release();
      await expect(session.run(feed(1), ['y'])).rejects.toThrow('released');
      expect(busy.at(-1)).toBe(false);
      close();
    },
  );

  it('fails outstanding and later requests when the other side dies', async () => {
    const { remote, close } = connect(doubler);
    const session = await remote.load(SELFIE);
    const outstanding = session.run(feed(1), ['y']);
    remote.fail(new Error('The inference thread exited (code 1)'));
    await expect(outstanding).rejects.toThrow('exited');
    await expect(session.run(feed(2), ['y'])).rejects.toThrow('exited');
    close();
  });

  it('passes the device choice across, and the refusal of a device that is not there', async () => {
    const served = connect(doubler);
    await expect(served.remote.device()).resolves.toEqual({
      device: 'cpu',
      adapter: 'CPU, 1 thread',
      notChosen: { webgpu: 'No supported adapters' },
    });
    served.close();
    const refused = connect({
      ...doubler,
      device: () => Promise.reject(new Error('INFERENCE_DEVICE=webgpu, but No supported adapters')),
    });
    await expect(refused.remote.device()).rejects.toThrow(
      'INFERENCE_DEVICE=webgpu, but No supported adapters',
    );
    refused.close();
  });
});
