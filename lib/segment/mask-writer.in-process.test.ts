import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMaskFrames } from './frame-reader';
import { maskEncodeArgs } from './mask-writer';

let dir = '';
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-mask-writer-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `count` diagonal ramps through every value 0-255, each frame's shifted from the last. */
function framesOf(width: number, height: number, count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, f) => {
    const frame = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) frame[y * width + x] = (x + 3 * y + 31 * f) & 255;
    return frame;
  });
}

/** Writes the frames through the mask encoder's arguments; its peak RSS from /proc while it ran. */
async function encode(width: number, height: number, frames: Uint8Array[], out: string) {
  const info = { width, height, fpsRational: '30/1' };
  const child = spawn('ffmpeg', ['-nostdin', '-y', ...maskEncodeArgs(info, out)], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  let peakKiB = 0;
  // VmHWM only grows: its last reading before the encoder exits is its peak.
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
    } catch {
      // exited between two readings
    }
  }, 5);
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (const frame of frames)
    if (!child.stdin.write(frame)) await new Promise((r) => child.stdin.once('drain', r));
  child.stdin.end();
  const code = await closed;
  clearInterval(sample);
  expect(code).toBe(0);
  return { peakMiB: peakKiB / 1024 };
}

describe('the mask writer at 3840x2160', () => {
  it.runIf(process.platform === 'linux')(
    'stores every value exactly, with an encoder that holds a few hundred MB, not FFV1 1.3 GB',
    async () => {
      const [w, h] = [3840, 2160];
      const frames = framesOf(w, h, 4);
      const file = path.join(dir, 'mask-4k.mkv');
      const { peakMiB } = await encode(w, h, frames, file);
      expect(peakMiB).toBeGreaterThan(0);
      expect(peakMiB).toBeLessThan(512);
      let i = 0;
      for await (const frame of readMaskFrames(file, { width: w, height: h })) {
        expect(Buffer.compare(Buffer.from(frame), Buffer.from(frames[i]!))).toBe(0);
        i++;
      }
      expect(i).toBe(frames.length);
    },
  );
});
