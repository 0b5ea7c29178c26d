import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierFor, withManifest } from '../../engine/models/registry';
import type { ApiModel } from '../../engine/api-models';
import { PEOPLE_TIERS } from '../../engine/tiers';
import { createVideoMatter } from '../../engine/video-matter';
import { probeVideo } from '../../lib/media/probe';
import { readFrames } from '../../lib/segment/frame-reader';
import { createOrtNodeRuntime } from '../../lib/inference/ort-node-runtime';
import { openBrowserEngine, type BrowserEngine } from '../browser-engine/harness';

const CLIP = path.resolve(
  import.meta.dirname,
  '../../../shared/testdata/videos/liveportrait_d12_talking_glasses_512.mp4',
);
const hasClip = fs.existsSync(CLIP);
const hasChromium = fs.existsSync('/usr/bin/chromium');
const FRAMES = 6;

/** The same frames through the engine in Node (onnxruntime-node) for comparison. */
async function nodeMattes(
  model: ApiModel | 'people-rvm',
  frames: Uint8Array[],
  width: number,
  height: number,
  count: number,
) {
  const { tier, manifest } =
    model === 'people-rvm' ? withManifest(PEOPLE_TIERS.rvm) : tierFor(model);
  const matter = await createVideoMatter({
    runtime: createOrtNodeRuntime({ threads: 1 }),
    manifest,
    tier,
  });
  const out: Uint8Array[] = [];
  for (const data of frames.slice(0, count))
    out.push(...(await matter.push({ data, width, height })));
  out.push(...(await matter.flush()));
  await matter.release();
  return out;
}

describe.skipIf(!hasClip || !hasChromium)(
  'engine in headless Chromium (onnxruntime-web WASM) vs Node',
  () => {
    let engine: BrowserEngine;
    let frames: Uint8Array[] = [];
    let width = 0;
    let height = 0;

    beforeAll(async () => {
      const info = await probeVideo(CLIP);
      for await (const f of readFrames(info, CLIP, { maxFrames: FRAMES })) frames.push(f.data);
      width = info.width;
      height = info.height;
      const joined = new Uint8Array(frames.length * width * height * 4);
      frames.forEach((f, i) => joined.set(f, i * f.length));
      engine = await openBrowserEngine({ data: joined, width, height });
    }, 300_000);
    afterAll(async () => {
      await engine?.close();
      frames = [];
    });

    for (const [model, count] of [
      ['service-human', FRAMES],
      ['service-light', 3],
      // Robust Video Matting (converted at prepare time), its recurrent state carried in both.
      ['people-rvm', 4],
    ] as const) {
      it(`${model}: the browser's mattes match the server's`, async () => {
        const browser = await engine.page.evaluate(([m, n]) => window.runEngine(m, n), [
          model,
          count,
        ] as const);
        const server = await nodeMattes(model, frames, width, height, count);
        expect(browser.alphas).toHaveLength(count);
        for (let i = 0; i < count; i++) {
          const b = Buffer.from(browser.alphas[i]!, 'base64');
          const s = server[i]!;
          expect(b.length).toBe(s.length);
          let sum = 0;
          let worse = 0;
          for (let k = 0; k < s.length; k++) {
            const d = Math.abs(b[k]! - s[k]!);
            sum += d;
            if (d > 8) worse++;
          }
          // Same engine, two runtimes: float kernels differ only in rounding.
          expect(sum / s.length).toBeLessThan(0.5);
          expect(worse / s.length).toBeLessThan(0.002);
          // And the matte is a real one (a talking head fills part of the frame).
          const mean = s.reduce((a, v) => a + v, 0) / s.length;
          expect(mean).toBeGreaterThan(30);
          expect(mean).toBeLessThan(220);
        }
      });
    }
  },
);
