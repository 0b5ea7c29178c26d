import { describe, expect, it } from 'vitest';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';
import { compositeRuntime, rgbPlanes } from './composite-runtime';

describe('compositeRuntime', () => {
  it('answers frames one at a time in order and releases its models after the last', async () => {
    const events: string[] = [];
    const model = (id: string): InferenceSession => ({
      run: () => Promise.resolve({}),
      release: () => Promise.resolve(void events.push(`release ${id}`)),
    });
    const base: InferenceRuntime = { name: 'cpu', load: (m) => Promise.resolve(model(m.id)) };
    const composite = compositeRuntime('test', base, 'probability', async () => {
      const sessions = [await base.load({ id: 'a', file: 'a' }), undefined];
      return {
        answer: async (feeds) => {
          const { planes, width, height } = rgbPlanes(feeds.rgb!);
          events.push(`start ${planes[2]![0]}`);
          await new Promise((r) => setTimeout(r, planes[2]![0] === 1 ? 20 : 0));
          events.push(`end ${planes[2]![0]}`);
          return { data: Float32Array.from(planes[1]!), width, height };
        },
        sessions,
      };
    });
    expect(composite.name).toBe('test over cpu');
    const session = await composite.load({ id: 'test', file: 'test' });
    // 2 × 1 frames whose blue plane holds the frame's number.
    const frame = (n: number): TensorData => ({
      data: Float32Array.from([0, 0, 7, 8, n, n]),
      dims: [1, 3, 1, 2],
    });
    const [one, two] = await Promise.all([
      session.run({ rgb: frame(1) }, ['probability']),
      session.run({ rgb: frame(2) }, ['probability']),
    ]);
    await session.release();
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'release a']);
    expect(one.probability).toEqual({ data: Float32Array.from([7, 8]), dims: [1, 1, 1, 2] });
    expect(two.probability!.dims).toEqual([1, 1, 1, 2]);
  });
});
