import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWebp } from '../../engine/media/containers';
import type { MediaInfo } from '../../engine/media/types';
import { probeVideo } from './probe';
import { renderOutput } from './render';
import { fromLavfi, H264 } from './fixtures';

// A clip with no motion at all (an image-to-video still with motion "none"): every frame is the
// same. libwebp then writes one frame cropped to the subject, with no alpha of its own (an opaque
// subject), or, when the frame covers the canvas (the clip is square, as a sticker's canvas), a
// still image instead of an animation (the validator crashed on it: "reading 'some'").
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-still-webp-'));
let source: string;
let info: MediaInfo;
const masks = {
  'an opaque subject':
    'color=c=black:s=320x320:r=24:d=2,' +
    'drawbox=x=100:y=40:w=120:h=160:color=white:t=fill,format=gray',
  'alpha over the whole canvas':
    'color=c=0x808080:s=320x320:r=24:d=2,' +
    'drawbox=x=100:y=40:w=120:h=160:color=white:t=fill,format=gray',
};

beforeAll(async () => {
  source = path.join(tmp, 'still.mp4');
  await fromLavfi(source, 'color=c=0x3060c0:s=320x320:r=24:d=2', H264);
  for (const [name, graph] of Object.entries(masks))
    await fromLavfi(path.join(tmp, `${name}.mkv`), graph, ['-c:v', 'ffv1']);
  info = await probeVideo(source);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a WebP of a clip with no motion', () => {
  const cases = (['whatsapp_webp_v1', 'webp'] as const).flatMap((format) =>
    Object.keys(masks).map((mask) => [format, mask] as const),
  );
  it.each(cases)('is a valid looping animation (%s, %s)', async (format, maskName) => {
    const out = await renderOutput({
      source,
      info,
      mask: path.join(tmp, `${maskName}.mkv`),
      recipe: { kind: 'transparent', format },
      outDir: path.join(tmp, format),
    });
    expect(out.metadata).toMatchObject({
      validated: true,
      loop: true,
      loop_count: 0,
      has_alpha: true,
    });
    const webp = readWebp(new Uint8Array(fs.readFileSync(out.file)));
    expect(webp.frames.length).toBeGreaterThanOrEqual(1);
    expect(webp.frames.reduce((t, f) => t + f.duration, 0)).toBeCloseTo(
      out.metadata.duration_seconds * 1000,
      -1,
    );
  });
});
