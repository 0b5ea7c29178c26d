import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readApng } from '../../engine/media/containers';
import { frameDelays, unpremultiply, writeQuantizedApng } from './apng';

describe('lossy APNG', () => {
  it('turns premultiplied palette colours back into straight colour', () => {
    // 0xAABBGGRR: red 100 premultiplied at alpha 128 is red 199 straight.
    expect(unpremultiply(((128 << 24) | 100) >>> 0)).toBe(((128 << 24) | 199) >>> 0);
    expect(unpremultiply(0x00ffffff)).toBe(0);
    expect(unpremultiply(0xff102030)).toBe(0xff102030);
  });

  it('keeps whole-millisecond delays on the exact timeline', () => {
    const d = frameDelays(90, 30);
    expect(d.slice(0, 3)).toEqual([33, 34, 33]);
    expect(d.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(frameDelays(25, 12.5).every((x) => x === 80)).toBe(true);
  });

  it('writes a looping palette APNG whose tRNS keeps partial alpha', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-apng-'));
    try {
      const [w, h, n] = [16, 8, 3];
      const raw = Buffer.alloc(w * h * 4 * n);
      for (let f = 0; f < n; f++)
        for (let i = 0; i < w * h; i++) {
          const at = (f * w * h + i) * 4;
          raw[at] = (i * 7 + f * 40) & 255;
          raw[at + 1] = 200;
          raw[at + 3] = (i % w) * 16; // 0 … 240: transparent to nearly opaque
        }
      const rawFrames = path.join(dir, 'frames.rgba');
      const output = path.join(dir, 'out.png');
      fs.writeFileSync(rawFrames, raw);
      await writeQuantizedApng({ rawFrames, width: w, height: h, frames: n, fpsRational: '12/1', colours: 32, output });
      const apng = readApng(new Uint8Array(fs.readFileSync(output)));
      expect(apng).toMatchObject({ width: w, height: h, loopCount: 0, hasAlpha: true, colorType: 3 });
      expect(apng.frames.map((f) => Math.round(f.duration))).toEqual([83, 84, 83]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
