import { describe, expect, it } from 'vitest';
import type { ModelFile } from '../../engine/runtime';
import type { ServedRuntime } from './runtime-rpc';
import { keepingSessions } from './server-runtime';

/** A runtime that counts the sessions it loads and those released again. */
function counting() {
  const count = { loads: 0, releases: 0 };
  const runtime: ServedRuntime = {
    name: 'counting',
    device: () => Promise.resolve({ device: 'cpu', adapter: 'counting', notChosen: {} }),
    load: () => {
      count.loads++;
      return Promise.resolve({
        run: () => Promise.resolve({}),
        release: () => (count.releases++, Promise.resolve()),
      });
    },
  };
  return { runtime, count };
}

const MODEL: ModelFile = { id: 'selfie', file: 'selfie.onnx' };

describe('keepingSessions', () => {
  it('keeps a released session for the next video, until releaseIdle unloads it', async () => {
    const { runtime, count } = counting();
    const kept = keepingSessions(runtime);
    await (await kept.load(MODEL)).release();
    await (await kept.load(MODEL)).release();
    expect(count).toEqual({ loads: 1, releases: 0 });
    await kept.releaseIdle!();
    expect(count).toEqual({ loads: 1, releases: 1 });
    // Unloaded: the next video loads the model again.
    await kept.load(MODEL);
    expect(count.loads).toBe(2);
  });

  it('leaves a session loaded while a job still uses it, whatever others released', async () => {
    const { runtime, count } = counting();
    const kept = keepingSessions(runtime);
    const first = await kept.load(MODEL);
    const second = await kept.load(MODEL);
    await second.release();
    await second.release(); // a second release of one load counts once
    await kept.releaseIdle!();
    expect(count.releases).toBe(0);
    await first.release();
    await kept.releaseIdle!();
    expect(count).toEqual({ loads: 1, releases: 1 });
  });
});
