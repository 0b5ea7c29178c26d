import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeVideo } from './probe';

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
    const f = make('ok.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=1', '-pix_fmt', 'yuv420p']);
    const info = await probeVideo(f);
    expect(info).toMatchObject({ demuxer: 'mov', container: 'mp4', width: 320, height: 240, fps: 25, hasAudio: false });
    expect(info.frameCount).toBe(25);
    expect(info.fpsRational).toBe('25/1');
  });

  it('refuses an HLS playlist named .mp4 that points at another file', async () => {
    const target = make('secret.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=64x64:d=1']);
    const f = path.join(dir, 'playlist.mp4');
    fs.writeFileSync(f, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${target}\n#EXT-X-ENDLIST\n`);
    await expect(probeVideo(f)).rejects.toThrow(/not a supported video/);
  });

  it('refuses an ffconcat list named .mp4', async () => {
    const f = path.join(dir, 'concat.mp4');
    fs.writeFileSync(f, `ffconcat version 1.0\nfile '${path.join(dir, 'secret.mp4')}'\n`);
    await expect(probeVideo(f)).rejects.toThrow(/not a supported video/);
  });

  it('refuses a tiny file that claims to last 10 hours', async () => {
    const f = make('long.mkv', [
      '-f', 'lavfi', '-i', 'color=s=64x64:r=25:d=0.08',
      '-vf', "setpts='if(eq(N,1),36000/TB,PTS)'", '-fps_mode', 'passthrough', '-c:v', 'ffv1',
    ]);
    expect(fs.statSync(f).size).toBeLessThan(100_000);
    await expect(probeVideo(f)).rejects.toThrow(/limit is \d+ s/);
  });

  it('accepts a video of exactly the 600 s limit whose audio runs a little longer, refuses 601 s', async () => {
    const tiny = ['-f', 'lavfi', '-i', 'color=s=16x16:r=1:d=600', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-c:v', 'libx264', '-c:a', 'aac'];
    const info = await probeVideo(make('ten-minutes.mp4', [...tiny, '-t', '600.3']));
    expect(info.duration).toBeCloseTo(600.3, 1);
    const over = make('over.mp4', ['-f', 'lavfi', '-i', 'color=s=16x16:r=1:d=601', '-c:v', 'libx264']);
    await expect(probeVideo(over)).rejects.toThrow('The video is 601.0 s long; the limit is 600 s.');
  });

  it('refuses a frame of 8192x8192 before decoding it', async () => {
    const f = make('huge.mp4', ['-f', 'lavfi', '-i', 'color=s=8192x8192:r=1:d=1', '-c:v', 'mjpeg', '-q:v', '31']);
    await expect(probeVideo(f)).rejects.toThrow(/8192x8192 .* pixels per frame/);
  });

  it('refuses text and truncated files with a clear message', async () => {
    const txt = path.join(dir, 'notes.mp4');
    fs.writeFileSync(txt, 'hello, this is not a video');
    await expect(probeVideo(txt)).rejects.toThrow(/not a supported video/);
    const ok = make('cut.mp4', ['-f', 'lavfi', '-i', 'testsrc2=s=320x240:d=2', '-movflags', '+faststart']);
    const cut = path.join(dir, 'truncated.mp4');
    fs.writeFileSync(cut, fs.readFileSync(ok).subarray(0, 2000));
    await expect(probeVideo(cut)).rejects.toThrow(/corrupt or truncated/);
    // Headers alone look fine: only the worker's full probe (which decodes) catches it.
    await expect(probeVideo(cut, { metadataOnly: true })).resolves.toMatchObject({ width: 320 });
  });
});

describe.skipIf(!fs.existsSync(videos))('probeVideo on real footage (../shared/testdata)', () => {
  it('honours the display matrix of a phone video', async () => {
    const info = await probeVideo(path.join(videos, 'liveportrait_d13_stored_landscape_displaymatrix_portrait.mov'));
    expect(info).toMatchObject({ container: 'mov', rotation: 90, width: 720, height: 1280, codedWidth: 1280 });
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
    await expect(probeVideo(path.join(videos, 'kivy_cityCC0_no_subject_720x405_first4s.mpg'))).rejects.toThrow(
      /not a supported video/,
    );
  });
});
