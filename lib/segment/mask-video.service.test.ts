import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiModel } from '../../engine/api-models';
import type { InferenceDevice } from '../inference/device';
import { ffmpeg } from '../media/ffmpeg';
import { probeVideo } from '../media/probe';
import { segmentVideo } from './mask-video';
import { standInRuntime } from '../../tests/service/stand-in-runtime';

// The service tier's stand-in runtime (tests/service/stand-in-runtime.ts), told it runs on a given device:
// which models a job loads shows which configuration of its tier ran.
let dir = '';
let clip = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-segment-'));
  clip = path.join(dir, 'clip.mp4');
  await ffmpeg([
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=160x120:r=10:d=1',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    clip,
  ]);
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
  it('runs service-human on the selfie model and the detector on the CPU, on Robust Video Matting and the detector on a GPU', async () => {
    expect(await modelsLoaded('service-human', 'cpu')).toEqual(['centernet', 'selfie']);
    expect(await modelsLoaded('service-human', 'webgpu')).toEqual(['centernet', 'rvm']);
    expect(await modelsLoaded('service-human', 'cuda')).toEqual(['centernet', 'rvm']);
  });

  it('runs a tier without a GPU configuration the same on both', async () => {
    expect(await modelsLoaded('service-light', 'webgpu')).toEqual(
      await modelsLoaded('service-light', 'cpu'),
    );
  });
});
