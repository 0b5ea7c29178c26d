import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIO_OUTLASTS_VIDEO, HUGE_FRAME, TINY_TEN_HOURS } from './fixtures';
import { decodedFrames } from '../../tests/support/counted-probe';
import { probeVideo, videoDuration } from './probe';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-probe-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const videos = path.resolve(import.meta.dirname, '../../../shared/testdata/videos');

function make(name: string, args: string[]): string {
  const out = path.join(dir, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

describe('probeVideo on generated files', () => {
  it('reads a small real MP4', async () => {
    const f = make('ok.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x240:r=25:d=1',
      '-pix_fmt',
      'yuv420p',
    ]);
    const info = await probeVideo(f);
    expect(info).toMatchObject({
      demuxer: 'mov',
      container: 'mp4',
      width: 320,
      height: 240,
      fps: 25,
      hasAudio: false,
    });
    expect(info.frameCount).toBe(25);
    expect(info.fpsRational).toBe('25/1');
  });

  it('refuses an HLS playlist named .mp4 that points at another file', async () => {
    const target = make('secret.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=64x64:d=1']);
    const f = path.join(dir, 'playlist.mp4');
    fs.writeFileSync(
      f,
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${target}\n#EXT-X-ENDLIST\n`,
    );
    await expect(probeVideo(f)).rejects.toThrow(/not a supported video/);
  });

  it('refuses an ffconcat list named .mp4', async () => {
    const f = path.join(dir, 'concat.mp4');
    fs.writeFileSync(f, `ffconcat version 1.0\nfile '${path.join(dir, 'secret.mp4')}'\n`);
    await expect(probeVideo(f)).rejects.toThrow(/not a supported video/);
  });

  it('refuses a tiny file that claims to last 10 hours', async () => {
    const f = make('long.mkv', TINY_TEN_HOURS);
    expect(fs.statSync(f).size).toBeLessThan(100_000);
    await expect(probeVideo(f)).rejects.toThrow(/limit is \d+ s/);
  });

  it(
    'accepts a video of exactly the 600 s limit whose audio runs a ' +
      'little longer, refuses 601 s',
    async () => {
      const tiny = [
        '-f',
        'lavfi',
        '-i',
        'color=s=32x32:r=1:d=600',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=8000:cl=mono',
        '-c:v',
        'libx264',
        '-c:a',
        'aac',
      ];
      const info = await probeVideo(make('ten-minutes.mp4', [...tiny, '-t', '600.3']));
      // The video stream's length, not the container's (which the audio makes 600.3 s).
      expect(info.duration).toBeCloseTo(600, 1);
      const over = make('over.mp4', [
        '-f',
        'lavfi',
        '-i',
        'color=s=32x32:r=1:d=601',
        '-c:v',
        'libx264',
      ]);
      await expect(probeVideo(over)).rejects.toThrow(
        'The video is 601.0 s long; the limit is 600 s.',
      );
    },
  );

  it('refuses a frame of 8192x8192 before decoding it', async () => {
    const f = make('huge.mp4', HUGE_FRAME);
    await expect(probeVideo(f)).rejects.toThrow(/8192x8192 .* pixels per frame/);
  });

  it('refuses text and truncated files with a clear message', async () => {
    const txt = path.join(dir, 'notes.mp4');
    fs.writeFileSync(txt, 'hello, this is not a video');
    await expect(probeVideo(txt)).rejects.toThrow(/not a supported video/);
    const ok = make('cut.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x240:d=2',
      '-movflags',
      '+faststart',
    ]);
    const cut = path.join(dir, 'truncated.mp4');
    fs.writeFileSync(cut, fs.readFileSync(ok).subarray(0, 2000));
    await expect(probeVideo(cut)).rejects.toThrow(/incomplete|corrupt or truncated|no frames/);
    // The headers alone look fine; the frames that are really there tell (no decoding needed).
    await expect(probeVideo(cut, { metadataOnly: true })).rejects.toThrow(/incomplete|no frames/);
  });
});

/** Rewrites the movie header's duration (mvhd, version 0) the way a hostile upload would. */
function claimDuration(file: string, seconds: number): string {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf('mvhd');
  expect(bytes[at + 4]).toBe(0);
  const timescale = bytes.readUInt32BE(at + 16);
  bytes.writeUInt32BE(Math.round(seconds * timescale), at + 20);
  const out = file.replace(/\.mp4$/, `-claims-${seconds}.mp4`);
  fs.writeFileSync(out, bytes);
  return out;
}

/** The refusal of a file whose frames stop before its declared 2.0 s, at `seconds` (a pattern). */
const stopsAfter = (seconds: string) =>
  new RegExp(
    String.raw`^The file is incomplete: its video stream declares 2\.0 s ` +
      `but its frames stop after ${seconds} s`,
  );

describe(
  'one duration of truth: the video stream frames, cross-checked ' + 'against the headers',
  () => {
    const clip = (name: string, seconds: number) =>
      make(name, [
        '-f',
        'lavfi',
        '-i',
        `testsrc2=s=256x256:r=25:d=${seconds}`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-movflags',
        '+faststart',
      ]);

    it(
      'refuses a 2 s clip whose MP4 header claims 36,000 s (it was ' + 'priced 36,000 credits)',
      async () => {
        const f = claimDuration(clip('two.mp4', 2), 36_000);
        await expect(probeVideo(f, { metadataOnly: true })).rejects.toThrow(
          "The file's container says it lasts 36000.0 s but its video stream runs for 2.0 s",
        );
      },
    );

    it('refuses a 30 s stream whose header claims 0.5 s (it was priced 1 credit)', async () => {
      const f = claimDuration(clip('thirty.mp4', 30), 0.5);
      await expect(probeVideo(f, { metadataOnly: true })).rejects.toThrow(
        'container says it lasts 0.5 s but its video stream runs for 30.0 s',
      );
    });

    it(
      'refuses a faststart MP4 cut in half before any charge: its ' +
        'header still declares the whole length',
      async () => {
        const whole = clip('whole.mp4', 2);
        const half = path.join(dir, 'half.mp4');
        fs.writeFileSync(
          half,
          fs.readFileSync(whole).subarray(0, Math.floor(fs.statSync(whole).size / 2)),
        );
        await expect(probeVideo(half, { metadataOnly: true })).rejects.toThrow(
          stopsAfter(String.raw`1\.\d`),
        );
      },
    );

    it(
      'refuses an AVI cut in half: its index is gone, but its header ' + 'still counts every frame',
      async () => {
        const whole = make('whole.avi', [
          '-f',
          'lavfi',
          '-i',
          'testsrc2=s=160x120:r=25:d=2',
          '-c:v',
          'mjpeg',
        ]);
        expect((await probeVideo(whole, { metadataOnly: true })).duration).toBeCloseTo(2, 1);
        const half = path.join(dir, 'half.avi');
        fs.writeFileSync(
          half,
          fs.readFileSync(whole).subarray(0, Math.floor(fs.statSync(whole).size / 2)),
        );
        await expect(probeVideo(half, { metadataOnly: true })).rejects.toThrow(
          stopsAfter(String.raw`[01]\.\d`),
        );
      },
    );

    it(
      'keeps a clip cut without re-encoding (edit list): its duration ' +
        'is what the decoder outputs',
      async () => {
        const source = make('long.mp4', [
          '-f',
          'lavfi',
          '-i',
          'testsrc2=s=160x120:r=30:d=8',
          '-c:v',
          'libx264',
          '-g',
          '60',
        ]);
        const cut = path.join(dir, 'cut-copy.mp4');
        execFileSync('ffmpeg', [
          '-v',
          'error',
          '-y',
          '-ss',
          '1.37',
          '-i',
          source,
          '-t',
          '5',
          '-c',
          'copy',
          cut,
        ]);
        const info = await probeVideo(cut, { metadataOnly: true });
        // Within a few frames of what the decoder outputs (5 s), far from the 6.4 s of packets
        // stored.
        expect(Math.abs(info.frameCount - (await decodedFrames(cut)))).toBeLessThanOrEqual(4);
        expect(info.duration).toBeLessThan(5.3);
      },
    );

    it('keeps a video whose audio runs on past it, priced by the video', async () => {
      const f = make('audio-longer.mp4', AUDIO_OUTLASTS_VIDEO);
      expect((await probeVideo(f, { metadataOnly: true })).duration).toBeCloseTo(4, 1);
    });
  },
);

describe('videoDuration', () => {
  const base = {
    declaredVideo: null,
    declaredOthers: [],
    container: null,
    containerStart: 0,
    maxSeconds: 600,
  };
  const timeline = (start: number, end: number, packets = 100) => ({ packets, start, end });

  it('is the span of the frames', () => {
    expect(
      videoDuration({
        ...base,
        timeline: timeline(0, 10),
        declaredVideo: 10.02,
        container: 10.1,
        declaredOthers: [10.1],
      }),
    ).toBe(10);
    expect(
      videoDuration({
        ...base,
        timeline: timeline(0.54, 4.58),
        container: 4.04,
        containerStart: 0.54,
      }),
    ).toBeCloseTo(4.04);
  });

  it('allows rounding and short edit lists, refuses more', () => {
    expect(videoDuration({ ...base, timeline: timeline(0, 10), declaredVideo: 10.4 })).toBe(10);
    expect(() => videoDuration({ ...base, timeline: timeline(0, 10), declaredVideo: 11 })).toThrow(
      /incomplete/,
    );
    expect(() => videoDuration({ ...base, timeline: timeline(0, 100), declaredVideo: 97 })).toThrow(
      /cannot be trusted/,
    );
    expect(videoDuration({ ...base, timeline: timeline(0, 100), declaredVideo: 98.5 })).toBe(100);
    expect(() => videoDuration({ ...base, timeline: timeline(0, 10), container: 9 })).toThrow(
      /container says/,
    );
    expect(() => videoDuration({ ...base, timeline: timeline(0, 10), container: 12 })).toThrow(
      /container says/,
    );
    expect(
      videoDuration({ ...base, timeline: timeline(0, 10), container: 12, declaredOthers: [12] }),
    ).toBe(10);
  });

  it('refuses no frames and more than the cap', () => {
    expect(() => videoDuration({ ...base, timeline: timeline(0, 0, 0) })).toThrow(
      'The video stream has no frames.',
    );
    expect(() => videoDuration({ ...base, timeline: timeline(0, 601) })).toThrow(
      'The video is 601.0 s long; the limit is 600 s.',
    );
  });
});

describe.skipIf(!fs.existsSync(videos))('probeVideo on real footage (../shared/testdata)', () => {
  it('honours the display matrix of a phone video', async () => {
    const info = await probeVideo(
      path.join(videos, 'liveportrait_d13_stored_landscape_displaymatrix_portrait.mov'),
    );
    expect(info).toMatchObject({
      container: 'mov',
      rotation: 90,
      width: 720,
      height: 1280,
      codedWidth: 1280,
    });
  });

  it('reads every accepted container', async () => {
    const cases: [string, string][] = [
      ['liveportrait_d12_mjpeg.avi', 'avi'],
      ['sam2_juggle_remux.mkv', 'mkv'],
      ['pixabay35590_thoughtful_vp9_opus.webm', 'webm'],
      ['liveportrait_s18_hevc_hvc1.mov', 'mov'],
      ['sam2_05_juggle_fullbody_1280x720.mp4', 'mp4'],
    ];
    for (const [file, container] of cases) {
      expect((await probeVideo(path.join(videos, file))).container).toBe(container);
    }
  });

  it('refuses containers outside the allow-list (MPEG-PS)', async () => {
    await expect(
      probeVideo(path.join(videos, 'kivy_cityCC0_no_subject_720x405_first4s.mpg')),
    ).rejects.toThrow(/not a supported video/);
  });
});
