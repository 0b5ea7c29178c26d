import { describe, expect, it } from 'vitest';
import type { FlowField } from '../matte/flow';
import { fitCameraMotion, ownMotion } from './motion';

/** A camera pan with zoom, and a square moving against it. */
function panWithMover(w: number, h: number): FlowField {
  const u = new Float32Array(w * h);
  const v = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      u[i] = 3 + 0.01 * x;
      v[i] = -1 + 0.01 * y;
      if (x >= 40 && x < 70 && y >= 20 && y < 50) {
        u[i] = -4;
        v[i] = 2;
      }
    }
  }
  return { u, v, width: w, height: h };
}

describe('camera motion', () => {
  it(
    'fits the pan and zoom around a large subject moving against ' +
      'it, and leaves the subject as own motion',
    () => {
      const flow = panWithMover(120, 80);
      const cam = fitCameraMotion(flow);
      expect(cam.a[0]).toBeCloseTo(3, 1);
      expect(cam.a[1]).toBeCloseTo(0.01, 2);
      expect(cam.b[0]).toBeCloseTo(-1, 1);
      expect(cam.b[2]).toBeCloseTo(0.01, 2);
      const own = ownMotion(flow, cam);
      expect(own.data[35 * 120 + 55]!).toBeGreaterThan(7);
      expect(own.data[70 * 120 + 100]!).toBeLessThan(0.1);
    },
  );
});
