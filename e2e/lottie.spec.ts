import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { cutClip } from '../lib/media/fixtures';
import { expect, test } from './fixtures';
import { ARTIFACTS, CLIP, hasClip } from './support/media';

/**
 * The official n8n template 06 ("mobile Lottie animation"): create by `video_url`, start with its
 * exact body, then play the Lottie JSON from `processed_video_url` in lottie-web (the player the
 * web and react-native-web builds use) in Chromium. Frames are drawn by lottie-web's canvas
 * renderer; their alpha is compared with the mask video's, and a composite over a checkerboard is
 * kept in e2e-artifacts to look at.
 */
const templates = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../tests/integration/fixtures/n8n-templates.json'),
    'utf8',
  ),
) as Record<string, { create: string; start: string }>;
const LOTTIE_WEB = path.resolve(
  import.meta.dirname,
  '../node_modules/lottie-web/build/player/lottie.min.js',
);
const SIZE = 256;

interface Bodymovin {
  fr: number;
  op: number;
  w: number;
  h: number;
  assets: unknown[];
  layers: unknown[];
}

/** The template's body with its n8n expression filled in. */
const fill = (body: string, value: string) =>
  JSON.parse(body.replace(/\{\{[^}]*\}\}/g, value)) as unknown;

/** The mask video's frames as 8-bit planes. */
function maskFrames(file: string): Uint8Array[] {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', 'format=gray', '-f', 'rawvideo', '-'],
    { maxBuffer: 256 << 20 },
  );
  const frames: Uint8Array[] = [];
  for (let o = 0; o + SIZE * SIZE <= raw.length; o += SIZE * SIZE)
    frames.push(raw.subarray(o, o + SIZE * SIZE));
  return frames;
}

test.skip(!hasClip, 'needs ../shared/testdata');

test(
  'the n8n Lottie template completes and its file plays in ' +
    'lottie-web with the mask as its alpha',
  async ({ page, stack }) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const clip = path.join(ARTIFACTS, 'lottie-clip.mp4');
    await cutClip(CLIP, clip, 1.2, { filters: `scale=${SIZE}:${SIZE}` });
    const host = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'video/mp4' });
      fs.createReadStream(clip).pipe(res);
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    const videoUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/veo3.mp4`;

    const created = execFileSync(
      process.execPath,
      [
        'bin/keyout.mjs',
        'keys',
        'create',
        '--email',
        `lottie-${Date.now()}@example.com`,
        '--credits',
        '10',
      ],
      {
        env: { ...process.env, DATA_DIR: stack.dataDir, PUBLIC_URL: stack.url },
        encoding: 'utf8',
      },
    );
    const headers = {
      'Content-Type': 'application/json',
      'X-API-Key': created.trim().split('\n').at(-1)!,
    };
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${stack.url}/api/v1${url}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const job = await call('POST', '/jobs', fill(templates['06']!.create, videoUrl));
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const start = await call(
      'POST',
      `/jobs/${String(job.body.id)}/start`,
      fill(templates['06']!.start, ''),
    );
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    let status: Record<string, unknown> = {};
    await expect(async () => {
      status = (await call('GET', `/jobs/${String(job.body.id)}/status`)).body;
      expect(['completed', 'failed']).toContain(status.status);
    }).toPass({ timeout: 280_000, intervals: [2000] });
    host.close();
    expect(status, String(status.message)).toMatchObject({
      status: 'completed',
      output_format: 'lottie',
    });

    const served = await fetch(String(status.processed_video_url));
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(new URL(String(status.processed_video_url)).pathname).toMatch(/\.json$/);
    const animation = (await served.json()) as Bodymovin;
    expect(animation).toMatchObject({ w: SIZE, h: SIZE, fr: 25, op: 30 });
    const maskFile = path.join(ARTIFACTS, 'lottie-mask.mp4');
    fs.writeFileSync(
      maskFile,
      Buffer.from(await (await fetch(String(status.processed_mask_url))).arrayBuffer()),
    );
    const mask = maskFrames(maskFile);
    expect(mask.length).toBe(30);

    await page.setContent(
      '<body style="margin:0"><div id="player" ' +
        `style="width:${SIZE}px;height:${SIZE}px"></div></body>`,
    );
    await page.addScriptTag({ path: LOTTIE_WEB });
    const frames = [0, 10, 20, 29];
    const drawn = await page.evaluate(
      async ({ data, frames }) => {
        const lottie = (window as unknown as { lottie: { loadAnimation(o: object): LottiePlayer } })
          .lottie;
        type LottiePlayer = {
          addEventListener(e: string, f: () => void): void;
          goToAndStop(f: number, isFrame: boolean): void;
          totalFrames: number;
        };
        const anim = lottie.loadAnimation({
          container: document.getElementById('player'),
          renderer: 'canvas',
          loop: false,
          autoplay: false,
          animationData: data,
        });
        await new Promise<void>((resolve, reject) => {
          anim.addEventListener('loaded_images', resolve);
          anim.addEventListener('data_failed', () =>
            reject(new Error('lottie-web could not read the file')),
          );
        });
        const canvas = document.querySelector('#player canvas') as HTMLCanvasElement;
        const ctx = canvas.getContext('2d')!;
        const board = document.createElement('canvas');
        [board.width, board.height] = [canvas.width, canvas.height];
        const b = board.getContext('2d')!;
        return frames.map((f) => {
          anim.goToAndStop(f, true);
          const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          const alpha = new Uint8Array(pixels.length / 4).map((_, i) => pixels[i * 4 + 3]!);
          for (let y = 0; y < board.height; y += 16)
            for (let x = 0; x < board.width; x += 16) {
              b.fillStyle = (x + y) % 32 ? '#ccc' : '#fff';
              b.fillRect(x, y, 16, 16);
            }
          b.drawImage(canvas, 0, 0);
          let text = '';
          for (let i = 0; i < alpha.length; i += 8192)
            text += String.fromCharCode(...alpha.subarray(i, i + 8192));
          return {
            frame: f,
            width: canvas.width,
            total: anim.totalFrames,
            alpha: btoa(text),
            png: board.toDataURL('image/png'),
          };
        });
      },
      { data: animation, frames },
    );

    for (const d of drawn) {
      expect(d).toMatchObject({ width: SIZE, total: 30 });
      fs.writeFileSync(
        path.join(ARTIFACTS, `lottie-frame-${d.frame}.png`),
        Buffer.from(d.png.split(',')[1]!, 'base64'),
      );
      const alpha = Buffer.from(d.alpha, 'base64');
      const want = mask[d.frame]!;
      let diff = 0;
      let sum = 0;
      for (let i = 0; i < want.length; i++) {
        diff += Math.abs(alpha[i]! - want[i]!);
        sum += alpha[i]!;
      }
      // The subject is drawn where the mask has it, and only there (H.264 rounding on the mask's
      // side).
      expect(sum / want.length, `frame ${d.frame}`).toBeGreaterThan(20);
      expect(sum / want.length, `frame ${d.frame}`).toBeLessThan(235);
      expect(diff / want.length, `frame ${d.frame}: mean |alpha − mask|`).toBeLessThan(8);
    }
  },
);
