import { describe, expect, it } from 'vitest';
import { kindsFor } from './job-kinds';
import { needsDevice, resolveLanes } from './lanes';

describe('WORKER_LANES', () => {
  it(
    'the default (both lanes listed) lets a CPU-only worker ' +
      'segment: a default install has no other worker',
    () => {
      const lanes = resolveLanes(['gpu', 'cpu'], false);
      expect(lanes).toEqual(['gpu', 'cpu']);
      expect(kindsFor(lanes).all).toContain('segment-video');
    },
  );

  it(
    'auto leaves the gpu lane to workers whose models run on a GPU; ' +
      'every worker takes the cpu lane',
    () => {
      expect(resolveLanes('auto', false)).toEqual(['cpu']);
      expect(kindsFor(resolveLanes('auto', false)).all).toEqual([
        'render-output',
        'deliver-webhook',
      ]);
      expect(resolveLanes('auto', true)).toEqual(['gpu', 'cpu']);
    },
  );

  it('listed lanes are taken whatever the device', () => {
    expect(resolveLanes(['gpu'], false)).toEqual(['gpu']);
    expect(resolveLanes(['cpu'], true)).toEqual(['cpu']);
  });

  it('only a worker on the cpu lane alone starts without choosing an inference device', () => {
    expect([
      needsDevice(['cpu']),
      needsDevice(['gpu']),
      needsDevice(['gpu', 'cpu']),
      needsDevice('auto'),
    ]).toEqual([false, true, true, true]);
  });
});
