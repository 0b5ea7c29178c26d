import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiModel } from '../../engine/api-models';
import type { InferenceDevice } from '../inference/device';
import { probeVideo } from '../media/probe';
import { segmentVideo } from './mask-video';
import { standInRuntime } from '../../tests/in-process/stand-in-runtime';
import { fromLavfi, H264 } from '../media/fixtures';

// The in-process tier's stand-in runtime (tests/in-process/stand-in-runtime.ts), told it runs on a
// given device: which models a job loads shows which configuration of its tier ran.
let dir = '';
let clip = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-segment-'));
  clip = path.join(dir, 'clip.mp4');
  await fromLavfi(clip, 'testsrc2=s=160x120:r=10:d=1', H264);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function modelsLoaded(model: ApiModel, device: InferenceDevice): Promise<string[]> {
  const runtime = standInRuntime(); // a fresh one: its loads are this job's alone
  vi.spyOn(runtime, 'device').mockResolvedValue({
    device,
    adapter: `stand-in ${device}`,
    notChosen: {},
  });
  const load = vi.spyOn(runtime, 'load');
  const info = await probeVideo(clip);
  const result = await segmentVideo({
    input: clip,
    info,
    maskOut: path.join(dir, `${model}-${device}.mkv`),
    model,
    runtime,
  });
  expect(result.framesWritten).toBe(info.frameCount);
  return [...new Set(load.mock.calls.map(([m]) => m.id))].sort();
}

describe('segmentVideo on each device', () => {
  it(
    'runs service-human on the selfie model and the detector on the ' +
      'CPU, on Robust Video Matting and the detector on a GPU',
    async () => {
      expect(await modelsLoaded('service-human', 'cpu')).toEqual(['centernet', 'selfie']);
      expect(await modelsLoaded('service-human', 'webgpu')).toEqual(['centernet', 'rvm']);
      expect(await modelsLoaded('service-human', 'cuda')).toEqual(['centernet', 'rvm']);
    },
  );

  it('runs a tier without a GPU configuration the same on both', async () => {
    expect(await modelsLoaded('service-light', 'webgpu')).toEqual(
      await modelsLoaded('service-light', 'cpu'),
    );
  });
});

/** A `seconds`-long 10-fps clip of 96x64 (ffmpeg's moving test pattern). */
async function clipOf(seconds: number): Promise<string> {
  return fromLavfi(
    path.join(dir, `long-${seconds}.mp4`),
    `testsrc2=s=96x64:r=10:d=${seconds}`,
    H264,
  );
}

describe('segmentVideo streams', () => {
  it(
    'holds as many frames at once in a 60-s clip as in a 3-s one, ' +
      'and renders the primary output meanwhile',
    async () => {
      const held: number[] = [];
      for (const seconds of [3, 60]) {
        const input = await clipOf(seconds);
        const info = await probeVideo(input);
        const result = await segmentVideo({
          input,
          info,
          maskOut: path.join(dir, `long-${seconds}.mkv`),
          model: 'service-original',
          runtime: standInRuntime(),
          render: {
            recipe: { kind: 'transparent', format: 'webm_vp9' },
            outDir: path.join(dir, `out-${seconds}`),
            basename: 'output',
            poster: true,
          },
        });
        expect(result.framesWritten).toBe(info.frameCount);
        held.push(result.mostFramesHeld);
        // Rendered from the mask as it was written (the edge colour estimated on the way), and
        // validated against the finished file.
        expect(result.rendered?.metadata).toMatchObject({
          validated: true,
          frame_count: info.frameCount,
          has_alpha: true,
        });
        expect(fs.existsSync(result.rendered!.poster!)).toBe(true);
      }
      // Where the keys fall moves it by a frame or so; it does not grow with the 600 frames.
      expect(held[1]).toBeLessThanOrEqual(held[0]! + 2);
      expect(held[1]).toBeLessThan(30);
    },
  );

  it('leaves the output to render afterwards when the mask is not the whole clip', async () => {
    const input = await clipOf(3);
    const info = await probeVideo(input);
    const outDir = path.join(dir, 'cut');
    const result = await segmentVideo({
      input,
      info,
      maskOut: path.join(dir, 'cut.mkv'),
      model: 'service-human',
      runtime: standInRuntime(),
      maxFrames: 10,
      render: { recipe: { kind: 'transparent', format: 'webm_vp9' }, outDir, basename: 'output' },
    });
    expect(result.framesWritten).toBe(10);
    expect(result.rendered).toBeNull();
    expect(fs.readdirSync(outDir)).toEqual([]);
  });
});

describe('segmentVideo and the models it leaves loaded', () => {
  // A frame above 1080p renders after segmentation, and its VP9 encoders need the memory.
  it('unloads the idle models after a frame above 1080p, and keeps them otherwise', async () => {
    const released: number[] = [];
    for (const size of ['160x120', '2048x1152']) {
      const input = await fromLavfi(
        path.join(dir, `size-${size}.mp4`),
        `testsrc2=s=${size}:r=10:d=0.2`,
        H264,
      );
      const runtime = { ...standInRuntime(), releaseIdle: vi.fn(() => Promise.resolve()) };
      await segmentVideo({
        input,
        info: await probeVideo(input),
        maskOut: path.join(dir, `size-${size}.mkv`),
        model: 'service-human',
        runtime,
      });
      released.push(runtime.releaseIdle.mock.calls.length);
    }
    expect(released).toEqual([0, 1]);
  });
});
