import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../../lib/media/probe';
import { segmentVideo } from '../../lib/segment/mask-video';
import { readGrayFrames } from '../../scripts/lib-bench/frames';
import { iou } from '../../scripts/lib-bench/metrics';
import { H264 } from '../../lib/media/fixtures';

/**
 * The subject stage (engine/subject/) on real footage, through the real pipeline: service-light
 * runs it on its keys (a shot's first and last frame here), so each case costs two or three
 * ISNet runs.
 */
const run = promisify(execFile);
const TESTDATA = path.resolve(import.meta.dirname, '../../../shared/testdata');
const hasTestdata = fs.existsSync(path.join(TESTDATA, 'davis-train'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-subject-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * The first `frames` frames of a clip (or the given file) through service-light: its mask frames
 * and size.
 */
async function segment(input: string, frames: number) {
  const info = await probeVideo(input);
  const maskOut = path.join(
    tmp,
    `${path.basename(path.dirname(input))}-${path.basename(input)}.mkv`,
  );
  await segmentVideo({ input, info, maskOut, model: 'service-light', maxFrames: frames });
  return {
    masks: await readGrayFrames(['-i', maskOut], info.width, info.height),
    width: info.width,
    height: info.height,
  };
}

const davis = (seq: string) =>
  path.join(
    TESTDATA,
    fs.existsSync(path.join(TESTDATA, 'davis', seq)) ? 'davis' : 'davis-train',
    seq,
  );
const truth = (seq: string, w: number, h: number, frames: number) =>
  readGrayFrames(['-i', path.join(davis(seq), 'masks', '%05d.png')], w, h, frames);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Share of the ground truth's subject the mask covers. */
function recall(pred: Uint8Array, gt: Uint8Array): number {
  let hit = 0;
  let all = 0;
  for (let i = 0; i < gt.length; i++) {
    if (gt[i]! < 128) continue;
    all++;
    if (pred[i]! >= 128) hit++;
  }
  return all ? hit / all : 1;
}
/** Share of the frame the mask marks as subject. */
const coverage = (m: Uint8Array) => m.reduce((n, v) => n + (v >= 128 ? 1 : 0), 0) / m.length;

describe.skipIf(!hasTestdata)(
  'the subject stage on real footage (needs ../shared/testdata)',
  () => {
    it('keeps a show jumper and the horse under them as one subject', async () => {
      const { masks, width, height } = await segment(
        path.join(davis('horsejump-low'), 'video.mp4'),
        8,
      );
      const gt = await truth('horsejump-low', width, height, 8);
      // ISNet alone keeps the rider and drops most of the horse (J 0.69 on these frames).
      expect(mean(masks.map((m, i) => recall(m, gt[i]!)))).toBeGreaterThan(0.85);
      expect(mean(masks.map((m, i) => iou(m, gt[i]!)))).toBeGreaterThan(0.75);
    });

    it(
      'keeps the dancer and leaves the seated crowd and the other ' + 'dancers behind her out',
      async () => {
        const { masks, width, height } = await segment(
          path.join(davis('dance-jump'), 'video.mp4'),
          8,
        );
        const gt = await truth('dance-jump', width, height, 8);
        // Everything the mask keeps outside the dancer: the crowd sits along the top fifth.
        const outside = masks.map(
          (m, i) => m.reduce((n, v, j) => n + (v >= 128 && gt[i]![j]! < 128 ? 1 : 0), 0) / m.length,
        );
        expect(Math.max(...outside)).toBeLessThan(0.01);
        expect(mean(masks.map((m, i) => recall(m, gt[i]!)))).toBeGreaterThan(0.8);
      },
    );

    it('joins the pushed stroller, no COCO class, to the woman pushing it', async () => {
      const { masks, width, height } = await segment(path.join(davis('stroller'), 'video.mp4'), 16);
      const gt = await truth('stroller', width, height, 16);
      expect(mean(masks.map((m, i) => recall(m, gt[i]!)))).toBeGreaterThan(0.85);
      expect(mean(masks.map((m, i) => iou(m, gt[i]!)))).toBeGreaterThan(0.8);
    });

    it('chooses the subject again after a cut: the swan, then the car', async () => {
      const cut = path.join(tmp, 'cut.mp4');
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-i',
        path.join(davis('blackswan'), 'video.mp4'),
        '-i',
        path.join(davis('car-shadow'), 'video.mp4'),
        '-filter_complex',
        '[0:v]trim=end_frame=6,setpts=PTS-STARTPTS[a];' +
          '[1:v]trim=end_frame=6,setpts=PTS-STARTPTS[b];' +
          '[a][b]concat=n=2:v=1[v]',
        '-map',
        '[v]',
        '-c:v',
        'libx264',
        '-crf',
        '18',
        cut,
      ]);
      const { masks, width, height } = await segment(cut, 12);
      const swan = await truth('blackswan', width, height, 6);
      const car = await truth('car-shadow', width, height, 6);
      expect(mean(masks.slice(0, 6).map((m, i) => iou(m, swan[i]!)))).toBeGreaterThan(0.85);
      expect(mean(masks.slice(6).map((m, i) => iou(m, car[i]!)))).toBeGreaterThan(0.8);
    });

    it('leaves a shot with no subject empty, not noisy', async () => {
      // A city street with no one in it (MPEG-PS, which uploads refuse: made an MP4 first).
      const street = path.join(tmp, 'street.mp4');
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-i',
        path.join(TESTDATA, 'videos', 'kivy_cityCC0_no_subject_720x405_first4s.mpg'),
        '-frames:v',
        '8',
        '-an',
        '-vf',
        'crop=720:404',
        ...H264,
        street,
      ]);
      const { masks } = await segment(street, 8);
      expect(Math.max(...masks.map(coverage))).toBeLessThan(0.02);
    });
  },
);
