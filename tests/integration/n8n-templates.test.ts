import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import templates from './fixtures/n8n-templates.json';
import {
  createAccount,
  startStack,
  testVideo,
  waitForJob,
  type JobStatus,
  type Stack,
} from './helpers';
import { streamEntries } from '../support/counted-probe';
import { listenOnFreePort } from '../support/listen';
import { H264 } from '../../lib/media/fixtures';

const run = promisify(execFile);

/**
 * The official n8n templates (fixtures/n8n-templates.json: their request bodies, verbatim) sent
 * as n8n sends them: create by `video_url` on /api/v1, start at once, poll the status. Their
 * `{{ … }}` expressions become URLs on a loopback server (the stack allows private URLs, as LAN
 * self-hosting would), which also plays Google Drive for template 04.
 * The foreground carries a 440 Hz tone, the video background a 2 kHz one, on a pure blue
 * picture: the subject is whatever is not blue, and each tone's level is measured apart.
 */
const BG = { width: 640, height: 360 };
const FG_TONE = 440;
const BG_TONE = 2000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-n8n-'));
/** The frames the placement checks read, kept to look at. */
const FRAMES = path.resolve(import.meta.dirname, '../../test-results/n8n-templates');
const files: Record<string, { file: string; type: string }> = {};
const host = http.createServer((req, res) => {
  const served = files[req.url ?? ''];
  if (!served) return void res.writeHead(404).end('not here');
  res.writeHead(200, {
    'Content-Type': served.type,
    'Content-Length': fs.statSync(served.file).size,
  });
  if (req.method === 'HEAD') return void res.end();
  fs.createReadStream(served.file).pipe(res);
});
const origin = `http://127.0.0.1:${await listenOnFreePort(host, '127.0.0.1')}`;

let stack: Stack;
/**
 * One account per template, as each workflow runs under its own user (and the per-key start rate
 * limit of 3 a minute).
 */
const keys: Record<string, string> = {};

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', ...args]);
}

async function makeMedia(): Promise<void> {
  const fg = path.join(tmp, 'fg.mp4');
  const bgVideo = path.join(tmp, 'bg.mp4');
  const blue = `color=c=0x0000ff:s=${BG.width}x${BG.height}`;
  await Promise.all([
    ffmpeg([
      '-i',
      testVideo('liveportrait_d12_talking_glasses_512.mp4'),
      '-f',
      'lavfi',
      '-i',
      `sine=f=${FG_TONE}:r=48000`,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-t',
      '1',
      '-vf',
      'scale=256:256',
      ...H264,
      '-preset',
      'veryfast',
      '-c:a',
      'aac',
      fg,
    ]),
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `${blue}:r=25:d=2`,
      '-f',
      'lavfi',
      '-i',
      `sine=f=${BG_TONE}:r=48000:d=2`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv444p',
      '-qp',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '192k',
      bgVideo,
    ]),
    ffmpeg(['-f', 'lavfi', '-i', blue, '-frames:v', '1', '-q:v', '1', path.join(tmp, 'bg.jpg')]),
    ffmpeg(['-f', 'lavfi', '-i', blue, '-frames:v', '1', path.join(tmp, 'bg.png')]),
  ]);
  Object.assign(files, {
    '/fg.mp4': { file: fg, type: 'video/mp4' },
    '/bg.mp4': { file: bgVideo, type: 'video/mp4' },
    '/bg.jpg': { file: path.join(tmp, 'bg.jpg'), type: 'image/jpeg' },
    // What Google Drive's download link answers: no extension, the type in the header.
    '/uc?id=generated-background': { file: path.join(tmp, 'bg.png'), type: 'image/png' },
  });
}

/** A template's body with its n8n expressions filled in, the rest of the JSON kept as it is. */
function fill(body: string, value: string): unknown {
  return JSON.parse(
    body.replace('https://drive.google.com', origin).replace(/\{\{[^}]*\}\}/g, value),
  );
}

/**
 * Creates a job from the template's exact create body, then starts it with its exact start body.
 */
async function runTemplate(
  id: keyof typeof BACKGROUNDS,
): Promise<{ jobId: string; start: Record<string, unknown> }> {
  const t = templates[id];
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': keys[id]! };
  const created = await fetch(`${stack.baseUrl}/api/v1/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify(fill(t.create, `${origin}/fg.mp4`)),
  });
  const receipt = (await created.json()) as { id: string };
  expect(created.status, JSON.stringify(receipt)).toBe(200);
  const started = await fetch(`${stack.baseUrl}/api/v1/jobs/${receipt.id}/start`, {
    method: 'POST',
    headers,
    body: JSON.stringify(fill(t.start, BACKGROUNDS[id])),
  });
  const start = (await started.json()) as Record<string, unknown>;
  expect(started.status, JSON.stringify(start)).toBe(200);
  return { jobId: receipt.id, start };
}

const BACKGROUNDS = {
  '01': `${origin}/bg.mp4`,
  '02': `${origin}/bg.mp4`,
  '03': `${origin}/bg.jpg`,
  '04': 'generated-background',
  '05': '',
  '06': '',
};

async function download(
  status: JobStatus,
  name: string,
): Promise<{ file: string; type: string | null }> {
  const res = await fetch(String(status.processed_video_url));
  expect(res.status).toBe(200);
  const file = path.join(tmp, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, type: res.headers.get('content-type') };
}

/**
 * Blue levels through a subject at 95 % opacity over pure blue (12.75 in theory) and through an
 * opaque one (about 0) lie either side of this.
 */
const OPACITY_FLOOR = 6;

/**
 * The box (and count) of the pixels that are not the blue background, in the frame at 0.5 s (also
 * written as a PNG to look at).
 */
async function subjectBox(
  video: string,
  png: string,
): Promise<{ x0: number; y0: number; x1: number; y1: number; count: number; minBlue: number }> {
  fs.mkdirSync(FRAMES, { recursive: true });
  await ffmpeg(['-ss', '0.5', '-i', video, '-frames:v', '1', png]);
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', png, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const box = { x0: Infinity, y0: Infinity, x1: -1, y1: -1, count: 0, minBlue: 255 };
  for (let i = 0; i < stdout.length; i += 3) {
    const [r, g, b] = [stdout[i]!, stdout[i + 1]!, stdout[i + 2]!];
    if (r + g + (255 - b) < 120) continue;
    const p = i / 3;
    const x = p % BG.width;
    const y = Math.floor(p / BG.width);
    Object.assign(box, {
      x0: Math.min(box.x0, x),
      y0: Math.min(box.y0, y),
      x1: Math.max(box.x1, x),
      y1: Math.max(box.y1, y),
    });
    box.count++;
    // Well inside the subject, how much of the blue shows through.
    if (r + g + (255 - b) > 400) box.minBlue = Math.min(box.minBlue, b);
  }
  return box;
}

/** RMS level (dB) of one tone in a file's audio, the other tones filtered out. */
async function toneLevel(file: string, tone: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-i',
    file,
    '-map',
    '0:a:0',
    '-af',
    `bandpass=f=${tone}:width_type=q:w=8,` +
      `bandpass=f=${tone}:width_type=q:w=8,atrim=start=0.2:end=0.8,` +
      'astats=measure_overall=RMS_level:measure_perchannel=none',
    '-f',
    'null',
    '-',
  ]);
  return Number(/RMS level dB: (-?[\d.]+)/.exec(stderr)?.[1]);
}

beforeAll(async () => {
  [stack] = await Promise.all([startStack({ worker: true }), makeMedia()]);
  for (const id of Object.keys(BACKGROUNDS)) keys[id] = (await createAccount(stack, 50)).key;
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => host.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the official n8n templates, sent as n8n sends them', () => {
  it(
    'complete templates 01–06, with the subject, format and sound each template asks for',
    { timeout: 900_000 },
    async () => {
      const ids = ['01', '02', '03', '04', '05', '06'] as const;
      // n8n runs these independently: start them all, then poll each as the templates do.
      const started = await Promise.all(ids.map((id) => runTemplate(id)));
      const done = await Promise.all(
        started.map((s, i) => waitForJob(stack, keys[ids[i]!]!, s.jobId, { timeoutMs: 600_000 })),
      );
      for (const [i, id] of ids.entries()) {
        expect(started[i]!.start).toMatchObject({ status: 'processing' });
        expect(done[i]!.status, `${id}: ${done[i]!.message}\n${stack.logs()}`).toBe('completed');
      }
      const outputs = await Promise.all(
        done.map((d, i) =>
          download(
            d,
            `${ids[i]}-result${path.extname(new URL(String(d.processed_video_url)).pathname)}`,
          ),
        ),
      );

      for (const [i, id] of ['01', '02', '03', '04'].entries()) {
        const { file, type } = outputs[i]!;
        expect(type, id).toBe('video/mp4');
        expect(done[i]!.output_format, id).toBe('mp4');
        const streams = await streamEntries<{ codec_name: string; width?: number }>(
          file,
          'stream=codec_name,width,height',
        );
        expect(streams[0], id).toMatchObject({ codec_name: 'h264', ...BG });
        expect(
          streams.some((s) => s.codec_name === 'aac'),
          id,
        ).toBe(true);
      }
      // 01, 02 — ai_ugc_ad: the foreground 35 % of the width (224 px), at the bottom right, 95 %
      // opaque.
      for (const i of [0, 1]) {
        const box = await subjectBox(outputs[i]!.file, path.join(FRAMES, `${ids[i]}.png`));
        expect(box.count).toBeGreaterThan(2000);
        expect(box.x0).toBeGreaterThanOrEqual(BG.width - 224 - 2);
        expect(box.y0).toBeGreaterThanOrEqual(BG.height - 224 - 2);
        expect(box.x1).toBeGreaterThan(BG.width - 112);
        // 5 % of the blue background shows through even the darkest parts of the subject: 12.75
        // levels in theory, a few less after H.264's 4:2:0 chroma; fully opaque gives about 0.
        expect(box.minBlue).toBeGreaterThanOrEqual(OPACITY_FLOOR);
        // The background's tone at 0.3 (−10.5 dB) against its own level; the source's tone kept at
        // full level.
        const bgLevel =
          (await toneLevel(files['/bg.mp4']!.file, BG_TONE)) -
          (await toneLevel(outputs[i]!.file, BG_TONE));
        expect(bgLevel).toBeGreaterThan(9);
        expect(bgLevel).toBeLessThan(12);
        const fgLevel =
          (await toneLevel(files['/fg.mp4']!.file, FG_TONE)) -
          (await toneLevel(outputs[i]!.file, FG_TONE));
        expect(Math.abs(fgLevel)).toBeLessThan(1.5);
      }
      // 03, 04 — centered: the 256² foreground fitted to the 360 px height, centred (x 140–500).
      for (const i of [2, 3]) {
        const box = await subjectBox(outputs[i]!.file, path.join(FRAMES, `${ids[i]}.png`));
        expect(box.count).toBeGreaterThan(5000);
        expect(box.x0).toBeGreaterThanOrEqual(140 - 2);
        expect(box.x1).toBeLessThanOrEqual(500 + 2);
        expect(Math.abs((box.x0 + box.x1) / 2 - BG.width / 2)).toBeLessThan(60);
        expect(box.minBlue).toBeLessThan(OPACITY_FLOOR);
      }
      // 05 — the inverted mask video the template hands to an inpainting model.
      expect(outputs[4]!.type).toBe('video/mp4');
      expect(done[4]!.output_format).toBe('mask_video_inverted');
      // 06 — a Lottie JSON for the mobile players: the video's canvas, rate and frames, each frame
      // an embedded image.
      expect(outputs[5]!.type).toBe('application/json');
      expect(done[5]).toMatchObject({
        output_format: 'lottie',
        background: { type: 'transparent' },
      });
      const lottie = JSON.parse(fs.readFileSync(outputs[5]!.file, 'utf8')) as {
        w: number;
        h: number;
        fr: number;
        op: number;
        assets: { p: string }[];
        layers: unknown[];
      };
      expect(lottie).toMatchObject({ w: 256, h: 256, fr: 25, ip: 0, op: 25 });
      expect(lottie.assets.length).toBeGreaterThan(1);
      expect(lottie.assets.every((a) => a.p.startsWith('data:image/webp;base64,'))).toBe(true);
      expect(lottie.layers).toHaveLength(lottie.assets.length);
    },
  );
});
