import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLavfi } from '../../lib/media/fixtures';
import {
  api,
  completedJob,
  createAccount,
  maskVersionFile,
  remainingCredits,
  ROOT,
  settled,
  startStack,
  type Stack,
  type TestAccount,
} from './helpers';
import { writeColourWordsModel } from './helpers/open-vocabulary-model';
import { tempDir } from '../support/temp-dir';

const run = promisify(execFile);
const [W, H] = [320, 240];

async function frames(input: string, pixFmt: 'gray' | 'rgb24'): Promise<Uint8Array[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', input, '-f', 'rawvideo', '-pix_fmt', pixFmt, '-'],
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  const size = W * H * (pixFmt === 'gray' ? 1 : 3);
  const out: Uint8Array[] = [];
  for (let off = 0; off + size <= stdout.length; off += size)
    out.push(stdout.subarray(off, off + size));
  return out;
}

/**
 * The open-vocabulary slot end to end: a MODELS_DIR with the real models and a tiny genuine
 * ONNX segmenter under the slot's contract (helpers/open-vocabulary-model.ts, built now with
 * onnx-proto), a server and a worker on it. "the red thing" is not a built-in concept; with the
 * manifest it is a phrase for that model, whose map (through onnxruntime-node, int64 token ids
 * included) gives SAM the box of the red square on each key.
 */
describe('the open-vocabulary slot', () => {
  const tmp = tempDir('open-vocabulary');
  let stack: Stack;
  let owner: TestAccount;
  let job: string;
  let clip: string;

  beforeAll(async () => {
    const models = path.join(tmp, 'models');
    fs.mkdirSync(models);
    const prepared = path.resolve(ROOT, process.env.MODELS_DIR ?? 'models-cache');
    for (const f of fs.readdirSync(prepared))
      fs.symlinkSync(path.join(prepared, f), path.join(models, f));
    writeColourWordsModel(models);
    // 0.6 s at 25 fps: a red box crossing a green grid.
    clip = path.join(tmp, 'red.mp4');
    await fromLavfi(
      clip,
      `color=c=0x406040:s=${W}x${H}:d=0.6:r=25,` +
        'drawgrid=w=20:h=20:t=2:c=0x70a070[bg];' +
        'color=c=0xdd2020:s=80x60:r=25[box];' +
        "[bg][box]overlay=x='30+t*100':y=80:shortest=1",
      ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'veryfast'],
    );
    stack = await startStack({ worker: true, env: { MODELS_DIR: models } });
    owner = await createAccount(stack, 20);
    job = await completedJob(stack, owner.key, clip, { model: 'service-human' }, 300_000);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it(
    'refuses a phrase with a word the model does not know, naming ' + 'it, before any charge',
    async () => {
      const balance = () => remainingCredits(stack, owner.key);
      const before = await balance();
      const r = await api<{ error: string; details: string }>(
        stack,
        'POST',
        `/v1/jobs/${job}/refine-mask`,
        {
          key: owner.key,
          body: { model: 'service-original', prompt: { text: 'the red zorblax' } },
        },
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/No known concept in "the red zorblax".*open-vocabulary model/);
      expect(r.body.details).toMatch(
        /words the open-vocabulary model "colour-words" knows \(it does not know "zorblax"\)/,
      );
      expect(await balance()).toBe(before);
    },
  );

  it('adds "the red thing" through the model\'s map: the red box, frame by frame', async () => {
    const r = await api<{ refinement_id: string; concepts: string[] }>(
      stack,
      'POST',
      `/v1/jobs/${job}/refine-mask`,
      { key: owner.key, body: { model: 'service-original', prompt: { text: 'the red thing' } } },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.concepts).toEqual(['the red thing']);
    const done = await settled<{ status: string; error?: string }>(
      stack,
      owner.key,
      `/v1/refinements/${r.body.refinement_id}`,
      { timeoutMs: 300_000 },
    );
    expect(done.status, `${done.error}\n${stack.logs()}`).toBe('completed');
    const masks = await frames(await maskVersionFile(stack, job, 2), 'gray');
    const colour = await frames(clip, 'rgb24');
    expect(masks).toHaveLength(colour.length);
    let j = 0;
    masks.forEach((m, f) => {
      let inter = 0;
      let union = 0;
      for (let i = 0; i < m.length; i++) {
        const c = colour[f]!;
        const red = c[i * 3]! > 150 && c[i * 3 + 1]! < 90;
        if (red && m[i]! >= 128) inter++;
        if (red || m[i]! >= 128) union++;
      }
      j += inter / union;
    });
    expect(j / masks.length).toBeGreaterThan(0.85);
  });
});
