import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLavfi } from '../../lib/media/fixtures';
import { outputFormat, STICKER_FORMATS, type StickerFormat } from '../../engine/formats';
import { decodeAlphaLayer } from '../../lib/media/hevc-alpha';
import { storageKeys } from '../../lib/storage/keys';
import { expectHevcAlpha } from '../support/hevc-alpha-file';
import { vp9WithAlpha } from '../support/frames';
import {
  api,
  createAccount,
  hasTestdata,
  putUpload,
  refusedLongSource,
  remainingCredits,
  runJobToCompletion,
  settled,
  stackDb,
  startStack,
  testVideo,
  uploadedJob,
  waitForJob,
  writeInvertedMaskVersion,
  type Receipt,
  type Stack,
  type TestAccount,
} from './helpers';
import {
  alphaValues,
  lookAtSticker,
  type SeenSticker,
  stickerProblems,
} from '../support/sticker-file';
import { stillFrame } from '../support/still-frame';

interface ExportRecord {
  export_id: string;
  format: string;
  status: string;
  transform: Record<string, unknown> | null;
  output_url?: string;
  metadata?: Record<string, unknown> & {
    bytes: number;
    profile: string;
    fps: number;
    sticker: {
      budget_bytes: number;
      final_fps: number;
      speed_up: number;
      attempts: { bytes: number; fits: boolean; fps: number }[];
    };
  };
  error?: string;
}

/**
 * The checks on one sticker file: container and codec, canvas, duration, fps 12–30, bytes,
 * no audio, alpha.
 */
async function checkSticker(
  e: ExportRecord,
  format: StickerFormat,
  dir: string,
  sourceSeconds: number,
): Promise<SeenSticker> {
  expect(e.status, `${format}: ${e.error}`).toBe('completed');
  const policy = outputFormat(format).sticker!;
  const file = path.join(dir, `${format}.${outputFormat(format).extension}`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(e.output_url!)).arrayBuffer()));
  const seen = await lookAtSticker(file, policy.codec.codec, dir);
  expect(stickerProblems(seen, policy, sourceSeconds), format).toEqual([]);
  const bytes = seen.bytes;
  expect(e.metadata).toMatchObject({ validated: true, profile: format, bytes, has_audio: false });
  expect(e.metadata!.sticker.budget_bytes).toBe(policy.budgetBytes);
  const attempts = e.metadata!.sticker.attempts;
  expect(attempts.at(-1)).toMatchObject({ fits: true, bytes });
  expect(attempts.slice(0, -1).every((a) => !a.fits && a.bytes > policy.budgetBytes)).toBe(true);
  expect(e.metadata!.sticker.final_fps).toBe(attempts.at(-1)!.fps);
  return seen;
}

describe.skipIf(!hasTestdata)(
  'stickers, image-to-video and hevc_alpha through the API (needs ../shared/testdata)',
  () => {
    let stack: Stack;
    let owner: TestAccount;
    let tmp: string;
    let juggle: string;
    let dancer: string;

    const exportDone = (id: string) =>
      settled<ExportRecord>(stack, owner.key, `/v1/exports/${id}`, {
        timeoutMs: 900_000,
        intervalMs: 2_000,
      });
    const credits = () => remainingCredits(stack, owner.key);

    beforeAll(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-stickers-'));
      stack = await startStack({ worker: true });
      owner = await createAccount(stack, 200);
      [juggle, dancer] = await Promise.all([
        uploadedJob(stack, owner.key, testVideo('sam2_05_juggle_fullbody_1280x720.mp4')),
        uploadedJob(
          stack,
          owner.key,
          testVideo('liveportrait_s13_dance_fullbody_white_bg_720x1080.mp4'),
        ),
      ]);
      await Promise.all(
        [juggle, dancer].map((id) =>
          runJobToCompletion(
            stack,
            owner.key,
            id,
            { model: 'service-human' },
            { timeoutMs: 900_000 },
          ),
        ),
      );
    });
    afterAll(async () => {
      await stack?.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it(
      'exports every sticker format of the long juggle clip (10.3 s, ' +
        'sped up to each cap) in one use_gpu batch',
      async () => {
        const r = await api<{ batch_id: string; exports: ExportRecord[] }>(
          stack,
          'POST',
          `/v1/jobs/${juggle}/batch-exports`,
          {
            key: owner.key,
            body: { exports: STICKER_FORMATS.map((format) => ({ format })), use_gpu: true },
          },
        );
        expect(r.status, r.text).toBe(200);
        expect(r.body.exports.map((e) => e.format)).toEqual(STICKER_FORMATS);
        const dir = fs.mkdtempSync(path.join(tmp, 'juggle-'));
        const done = await settled<{ status: string; exports: ExportRecord[] }>(
          stack,
          owner.key,
          `/v1/batches/${r.body.batch_id}`,
          { timeoutMs: 1_500_000, intervalMs: 3_000 },
        );
        expect(done.status).toBe('completed');
        for (const [i, e] of done.exports.entries()) {
          const format = STICKER_FORMATS[i]!;
          await checkSticker(e, format, dir, 247 / 24);
          expect(e.metadata!.sticker.speed_up, format).toBeCloseTo(
            247 / 24 / outputFormat(format).sticker!.maxSeconds,
            2,
          );
        }
        // The busy clip needs the adaptive ladder: some formats only fit after several attempts.
        expect(done.exports.some((e) => e.metadata!.sticker.attempts.length >= 3)).toBe(true);
      },
      1_800_000,
    );

    // One format of each codec, alone (the batch above makes all eight): half named by `format`,
    // half by `sticker_profile`.
    const ONE_BY_ONE: StickerFormat[] = [
      'telegram_emoji_v1',
      'whatsapp_webp_v1',
      'discord_apng_v1',
      'discord_gif_v1',
    ];

    it(
      'exports a sticker of each codec of the dancer clip one by one ' +
        '(format, and sticker_profile as the older name)',
      async () => {
        const dir = fs.mkdtempSync(path.join(tmp, 'dancer-'));
        const ids: string[] = [];
        for (const [i, format] of ONE_BY_ONE.entries()) {
          const body = i % 2 ? { sticker_profile: format } : { format, transform: { fps: 24 } };
          const r = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${dancer}/exports`, {
            key: owner.key,
            body,
          });
          expect(r.status, r.text).toBe(200);
          // The receipt shows the versioned format.
          expect(r.body).toMatchObject({ format, status: 'queued' });
          ids.push(r.body.export_id);
        }
        for (const [i, id] of ids.entries())
          await checkSticker(await exportDone(id), ONE_BY_ONE[i]!, dir, 103 / 25);
      },
      1_800_000,
    );

    it('answers bad sticker requests with 400 and stores nothing', async () => {
      const prisma = await stackDb(stack);
      const before = await prisma.output.count({ where: { jobId: dancer } });
      for (const [path_, body, pattern] of [
        [
          'exports',
          { format: 'telegram_video_v1', transform: { fps: 60 } },
          /frame rate must be from 12 to 30 fps \(got 60\)/,
        ],
        [
          'exports',
          { format: 'slack_gif_v1', transform: { fps: 8 } },
          /frame rate must be from 12 to 30/,
        ],
        [
          'exports',
          { format: 'discord_gif_v1', transform: { max_width: 200 } },
          /max_width is not supported for sticker formats/,
        ],
        [
          'exports',
          { sticker_profile: 'whatsapp_webp_v1', transform: { max_width: 200 } },
          /max_width is not supported/,
        ],
        ['exports', { format: 'gif', sticker_profile: 'signal_apng_v1' }, /name different formats/],
        ['exports', { sticker_profile: 'telegram_video_v9' }, /sticker_profile/],
        [
          'batch-exports',
          { exports: [{ format: 'signal_apng_v1', sizes: [256] }] },
          /sizes are not supported for sticker formats/,
        ],
      ] as const) {
        const r = await api(stack, 'POST', `/v1/jobs/${dancer}/${path_}`, { key: owner.key, body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error, JSON.stringify(body)).toMatch(pattern);
      }
      expect(await prisma.output.count({ where: { jobId: dancer } })).toBe(before);
    });

    it('refuses sticker exports of a source over 30 s at start, before charging', async () => {
      const error = await refusedLongSource(stack, owner.key, tmp, 31, {
        model: 'service-light',
        background: { type: 'transparent' },
        exports: [{ format: 'telegram_emoji_v1' }],
      });
      expect(error).toMatch(/Sticker formats take videos up to 30 seconds; this one is 31\.0 s/);
    });

    it(
      'fails a sticker that cannot fit within its quality floors, ' +
        'says by how much, and serves nothing',
      async () => {
        // Full-frame colour noise under a full matte: nothing compresses it into Slack's 115,200
        // bytes.
        const noise = path.join(tmp, 'noise.mp4');
        await fromLavfi(noise, 'nullsrc=s=320x320:r=25:d=5', [
          '-vf',
          "geq=lum='random(1)*255':cb='random(2)*255':cr='random(3)*255',format=yuv420p",
          '-c:v',
          'libx264',
          '-qp',
          '0',
          '-preset',
          'ultrafast',
        ]);
        const id = await uploadedJob(stack, owner.key, noise);
        expect(
          (
            await api(stack, 'POST', `/v1/jobs/${id}/start`, {
              key: owner.key,
              body: { model: 'service-human' },
            })
          ).status,
        ).toBe(200);
        expect((await waitForJob(stack, owner.key, id, { timeoutMs: 600_000 })).status).toBe(
          'completed',
        );
        await writeInvertedMaskVersion(stack, id, 2);
        const r = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${id}/exports`, {
          key: owner.key,
          body: { format: 'slack_gif_v1' },
        });
        expect(r.status, r.text).toBe(200);
        const done = await exportDone(r.body.export_id);
        expect(done.status).toBe('failed');
        expect(done.error).toMatch(/^slack_gif_v1 could not fit its budget of 115,200 bytes /);
        expect(done.error).toMatch(/ bytes \(90 % of Slack \(custom emoji\)'s 128 KB\) within /);
        expect(done.error).toMatch(/ within its quality floors: the smallest of 6 attempts /);
        expect(done.error).toMatch(
          / attempts \(64 colours, bayer scale 5, 12\.5 fps\) made [\d,]+ bytes, /,
        );
        expect(done.error).toMatch(/ made [\d,]+ bytes, [\d,]+ bytes \([\d.]+ %\) over/);
        expect(done.output_url).toBeUndefined();
        expect(done.metadata).toBeUndefined();
        const row = await (
          await stackDb(stack)
        ).output.findUniqueOrThrow({ where: { id: r.body.export_id } });
        expect(row).toMatchObject({ status: 'failed', storageKey: null, metadataJson: null });
      },
      1_200_000,
    );

    it(
      'makes hevc_alpha from a real clip: two layers, alpha decoded ' +
        'back not constant, colour readable by FFmpeg 5.1',
      async () => {
        const r = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${dancer}/exports`, {
          key: owner.key,
          body: { format: 'hevc_alpha' },
        });
        expect(r.status, r.text).toBe(200);
        const done = await exportDone(r.body.export_id);
        expect(done.status, done.error).toBe('completed');
        const file = path.join(tmp, 'dancer.mov');
        fs.writeFileSync(file, Buffer.from(await (await fetch(done.output_url!)).arrayBuffer()));
        await expectHevcAlpha(file, { width: 720, height: 1080, frames: 103 });
        const planes = await decodeAlphaLayer(file, [10, 50, 100]);
        for (const plane of planes) {
          const values = new Set(plane);
          expect(values.size).toBeGreaterThan(2);
          expect(values.has(0) && values.has(255)).toBe(true);
        }
      },
      900_000,
    );

    it(
      'turns a PNG into a job (h3 image-to-video) that completes with ' +
        'its sticker exports, charged per second of output',
      async () => {
        const png = await stillFrame(
          testVideo('liveportrait_s13_dance_fullbody_white_bg_720x1080.mp4'),
          path.join(tmp, 'dancer.png'),
          { at: 2 },
        );
        const created = await api<Receipt & { image_to_video: Record<string, unknown> }>(
          stack,
          'POST',
          '/v1/h3/image-to-video',
          {
            key: owner.key,
            body: {
              filename: 'dancer.png',
              content_type: 'image/png',
              duration_seconds: 2,
              fps: 15,
              motion: 'bounce',
              model: 'service-light',
              background: { type: 'transparent', transparent_format: 'webm_vp9' },
              exports: [{ format: 'telegram_video_v1' }, { format: 'discord_gif_v1' }],
            },
          },
        );
        expect(created.status, created.text).toBe(200);
        expect(created.body).toMatchObject({
          status: 'created',
          content_type: 'image/png',
          image_to_video: {
            duration_seconds: 2,
            fps: 15,
            motion: 'bounce',
            model: 'service-light',
          },
        });
        expect((await putUpload(created.body, png)).status).toBe(200);
        const status = await api<{ status: string; length_seconds: number }>(
          stack,
          'GET',
          `/v1/jobs/${created.body.id}/status`,
          { key: owner.key },
        );
        expect(status.body).toMatchObject({ status: 'uploaded', length_seconds: 2 });
        const balance = await credits();
        const start = await api<{
          creditsUsed: number;
          video_length_seconds: number;
          exports: ExportRecord[];
        }>(stack, 'POST', `/v1/jobs/${created.body.id}/start`, {
          key: owner.key,
          body: {},
        });
        expect(start.status, start.text).toBe(200);
        // service-light: 0.75 credits per second of output, 2 s → 2 credits (rounded up).
        expect(start.body).toMatchObject({ creditsUsed: 2, video_length_seconds: 2 });
        expect(start.body.exports.map((e) => e.format)).toEqual([
          'telegram_video_v1',
          'discord_gif_v1',
        ]);
        expect(await credits()).toBe(balance - 2);
        const done = await waitForJob(stack, owner.key, created.body.id, { timeoutMs: 600_000 });
        expect(done.status, done.message ?? '').toBe('completed');
        const dir = fs.mkdtempSync(path.join(tmp, 'still-'));
        for (const e of start.body.exports)
          await checkSticker(await exportDone(e.export_id), e.format as StickerFormat, dir, 2);
        // The clip moves: the still was animated, not repeated.
        const primary = await api<{ processed_video_url: string }>(
          stack,
          'GET',
          `/v1/jobs/${created.body.id}/status`,
          { key: owner.key },
        );
        const webm = path.join(dir, 'primary.webm');
        fs.writeFileSync(
          webm,
          Buffer.from(await (await fetch(primary.body.processed_video_url)).arrayBuffer()),
        );
        const a = await alphaValues(vp9WithAlpha(webm), 30);
        const n = a.length / 3;
        const moved = a.slice(0, n).reduce((s, x, i) => s + Math.abs(x - a[n + i]!), 0) / n;
        expect(moved).toBeGreaterThan(5);
        // Only the still was segmented: one model run, and the job's mask has one frame per clip
        // frame.
        const prisma = await stackDb(stack);
        const job = await prisma.job.findUniqueOrThrow({ where: { id: created.body.id } });
        expect(job).toMatchObject({ frameCount: 30, fps: 15, container: 'png' });
        expect(job.sourceKey).toBe(storageKeys.source(job.id, 'clip', 'mkv'));
      },
      900_000,
    );

    it(
      'takes an image as multipart (options before the file) and ' + 'refuses what is not an image',
      async () => {
        const png = path.join(tmp, 'dancer.png');
        const form = new FormData();
        form.set('duration_seconds', '1');
        form.set('motion', 'zoom_in');
        form.set('exports', JSON.stringify([{ format: 'slack_gif_v1' }]));
        form.set('background', JSON.stringify({ type: 'transparent' }));
        form.set('file', new Blob([fs.readFileSync(png)], { type: 'image/png' }), 'dancer.png');
        const r = await fetch(`${stack.baseUrl}/v1/h3/image-to-video`, {
          method: 'POST',
          headers: { 'X-Api-Key': owner.key },
          body: form,
        });
        const body = (await r.json()) as {
          status: string;
          length_seconds: number;
          image_to_video: { motion: string };
        };
        expect(r.status, JSON.stringify(body)).toBe(200);
        expect(body).toMatchObject({
          status: 'uploaded',
          length_seconds: 1,
          image_to_video: { motion: 'zoom_in' },
        });
        const notImage = new FormData();
        notImage.set(
          'file',
          new Blob([fs.readFileSync(testVideo('liveportrait_d20_remux.mov'))], {
            type: 'image/png',
          }),
          'x.png',
        );
        const bad = await fetch(`${stack.baseUrl}/v1/h3/image-to-video`, {
          method: 'POST',
          headers: { 'X-Api-Key': owner.key },
          body: notImage,
        });
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { error: string }).error).toMatch(/not a supported image/);
        const url = await api(stack, 'POST', '/v1/h3/image-to-video', {
          key: owner.key,
          body: { image_url: 'http://127.0.0.1:1/x.png' },
        });
        expect(url.status).toBe(400);
        const gif = await api(stack, 'POST', '/v1/h3/image-to-video', {
          key: owner.key,
          body: { filename: 'a.gif', content_type: 'image/gif' },
        });
        expect(gif.status).toBe(400);
        expect(gif.body.error).toMatch(
          /content_type must be one of image\/png, image\/jpeg, image\/webp/,
        );
      },
    );
  },
);
