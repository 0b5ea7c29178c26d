import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePng, type PreviewImage, PreviewSampler, previewSize } from './preview';

describe('encodePng', () => {
  it('writes an RGBA PNG that ffmpeg decodes back to the same pixels', () => {
    const [w, h] = [5, 3];
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) % 256);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-png-')), 'p.png');
    fs.writeFileSync(file, encodePng(w, h, rgba));
    const back = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      file,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-',
    ]);
    expect(new Uint8Array(back)).toEqual(rgba);
  });
});

describe('PreviewSampler', () => {
  // A 4x2 frame whose red channel is its frame number, so the preview shows which frame it is.
  const frame = (n: number) => new Uint8Array(4 * 2 * 4).fill(n);
  const alpha = (v: number) => new Uint8Array(4 * 2).fill(v);

  it('pairs each alpha with its own frame and offers at most once per interval', () => {
    let clock = 0;
    const offered: PreviewImage[] = [];
    const s = new PreviewSampler(
      4,
      2,
      1000,
      (i) => offered.push(i),
      () => clock,
    );
    for (let n = 0; n < 5; n++) s.pushed(frame(n));
    s.finishedFrames([alpha(10), alpha(11)]); // frames 0 and 1 are done: 1 is offered
    expect(offered.map((o) => [o.frame, o.rgba[0], o.rgba[3]])).toEqual([[1, 1, 11]]);
    clock = 500;
    s.finishedFrames([alpha(12)]); // too soon
    clock = 1500;
    s.finishedFrames([alpha(13), alpha(14)]);
    expect(offered.map((o) => [o.frame, o.rgba[0], o.rgba[3]])).toEqual([
      [1, 1, 11],
      [4, 4, 14],
    ]);
  });

  it('keeps the aspect ratio and never upscales', () => {
    expect(previewSize(1920, 1080)).toEqual([480, 270]);
    expect(previewSize(720, 1280)).toEqual([270, 480]);
    expect(previewSize(320, 180)).toEqual([320, 180]);
  });
});
