/**
 * A corpus of hostile and broken media, made with ffmpeg and byte surgery, for the reliability
 * suite. None is a video Keyout should process whole: each must be refused with a message, or
 * fail with a message and be refunded.
 *
 *   npx tsx scripts/reliability/hostile-corpus.ts <dir>     writes the files and lists them
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  FASTSTART,
  fromLavfi,
  HUGE_FRAME,
  syntheticClip,
  TEN_HOUR_GAP,
} from '../../lib/media/fixtures';
import { run } from './common';

export interface HostileFile {
  name: string;
  file: string;
  /** What is wrong with it. */
  what: string;
}

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', ...args]);
}

/** The bytes of `file` after `edit`, written as `name`. */
function patched(dir: string, file: string, name: string, edit: (b: Buffer) => Buffer): string {
  const out = path.join(dir, name);
  fs.writeFileSync(out, edit(Buffer.from(fs.readFileSync(file))));
  return out;
}

/** The mvhd (movie header) duration set to `seconds`. */
const claimDuration = (seconds: number) => (b: Buffer) => {
  const at = b.indexOf('mvhd');
  b.writeUInt32BE(Math.round(seconds * b.readUInt32BE(at + 16)), at + 20);
  return b;
};

/** The bytes from `fraction` of the mdat box to its end replaced by `fill`. */
const spoilMdat = (fraction: number, fill: (n: number) => Buffer) => (b: Buffer) => {
  const at = b.indexOf('mdat');
  const end = at - 4 + b.readUInt32BE(at - 4);
  const from = Math.floor(at + 4 + (end - at - 4) * fraction);
  fill(end - from).copy(b, from);
  return b;
};

/** Where the corpus is being written, and the list it is adding to. */
interface Corpus {
  dir: string;
  add: (name: string, file: string, what: string) => void;
  /** Writes `bytes` as `name` in the corpus; returns its path. */
  write: (name: string, bytes: Buffer | string) => string;
}

/** Writes the corpus into `dir`; returns its files, each with what is wrong with it. */
export async function generateCorpus(dir: string): Promise<HostileFile[]> {
  fs.mkdirSync(dir, { recursive: true });
  const files: HostileFile[] = [];
  const c: Corpus = {
    dir,
    add: (name, file, what) => files.push({ name, file, what }),
    write: (name, bytes) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    },
  };

  const two = await syntheticClip(path.join(dir, 'base-2s.mp4'), { seconds: 2, extra: FASTSTART });
  const twoTail = await syntheticClip(path.join(dir, 'base-2s-moov-at-end.mp4'), { seconds: 2 });
  const thirty = await syntheticClip(path.join(dir, 'base-30s.mp4'), {
    seconds: 30,
    extra: FASTSTART,
  });
  const secret = c.write('secret.txt', 'password=hunter2\n');

  addNotVideos(c, secret);
  const png = await addForeignFormats(c, two);
  await addWithoutVideoStream(c, png);
  await addLyingHeaders(c, two, twoTail, thirty);
  await addOverLimits(c);
  await addFrameSizeBomb(c);
  return files;
}

/** Files that are not videos at all, two of them lists that point ffmpeg at a local secret. */
function addNotVideos({ add, write }: Corpus, secret: string): void {
  add('empty.mp4', write('empty.mp4', Buffer.alloc(0)), 'zero bytes');
  add('random.mp4', write('random.mp4', randomBytes(1 << 20)), '1 MiB of random bytes');
  add('text.mp4', write('text.mp4', 'This is not a video.\n'.repeat(100)), 'plain text');
  add('html.mp4', write('html.mp4', '<html><script>alert(1)</script></html>'), 'HTML');
  add(
    'hls.mp4',
    write(
      'hls.mp4',
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
    ),
    'an HLS playlist pointing at a local file',
  );
  add(
    'concat.mp4',
    write('concat.mp4', `ffconcat version 1.0\nfile '${secret}'\n`),
    'an ffconcat list pointing at a local file',
  );
  add(
    'ftyp-only.mp4',
    write(
      'ftyp-only.mp4',
      Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypisom\0\0\0\0isom')]),
    ),
    'an MP4 signature and nothing else',
  );
}

/** Real formats outside the allow-list, named .mp4; returns the PNG, which the cover art reuses. */
async function addForeignFormats({ dir, add }: Corpus, two: string): Promise<string> {
  const addRenamed = (file: string, name: string, what: string) =>
    add(
      name,
      patched(dir, file, name, (b) => b),
      what,
    );
  const gif = path.join(dir, 'anim.gif');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x64:rate=10:duration=1', gif]);
  addRenamed(gif, 'gif.mp4', 'a GIF');
  const png = path.join(dir, 'image.png');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-frames:v', '1', png]);
  addRenamed(png, 'png.mp4', 'a PNG image');
  const ts = path.join(dir, 'stream.ts');
  await ffmpeg(['-i', two, '-c', 'copy', '-f', 'mpegts', ts]);
  addRenamed(ts, 'mpegts.mp4', 'an MPEG-TS stream');
  const h264 = path.join(dir, 'raw.h264');
  await ffmpeg(['-i', two, '-c', 'copy', '-f', 'h264', h264]);
  addRenamed(h264, 'raw-h264.mp4', 'a raw H.264 bitstream');
  const mp3 = path.join(dir, 'sound.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=440:d=2', mp3]);
  addRenamed(mp3, 'mp3.mp4', 'an MP3');
  return png;
}

/** Containers without a usable video stream. */
async function addWithoutVideoStream({ dir, add }: Corpus, png: string): Promise<void> {
  const audioOnly = path.join(dir, 'audio-only.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=440:d=2', '-c:a', 'aac', audioOnly]);
  add('audio-only.mp4', audioOnly, 'audio and no video');
  const cover = path.join(dir, 'cover-art.mp4');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=f=440:d=2',
    '-i',
    png,
    '-map',
    '0',
    '-map',
    '1',
    '-c:a',
    'aac',
    '-c:v',
    'mjpeg',
    '-disposition:v',
    'attached_pic',
    cover,
  ]);
  add('cover-art.mp4', cover, 'audio with a cover picture as its only image');
  const noFrames = path.join(dir, 'no-frames.mp4');
  await fromLavfi(noFrames, 'testsrc2=size=64x64:rate=25', ['-frames:v', '0', '-c:v', 'libx264']);
  add('no-frames.mp4', noFrames, 'a video track with no frames');
  add(
    'codec-renamed.mkv',
    patched(
      dir,
      await syntheticClip(path.join(dir, 'base.mkv'), { seconds: 2 }),
      'codec-renamed.mkv',
      (b) => {
        const at = b.indexOf('V_MPEG4/ISO/AVC');
        b.write('V_XXXXX/ISO/AVC', at);
        return b;
      },
    ),
    'a Matroska track whose codec no decoder knows',
  );
}

/** Lying and broken headers, and data cut short or spoilt under an intact index. */
async function addLyingHeaders(
  { dir, add }: Corpus,
  two: string,
  twoTail: string,
  thirty: string,
): Promise<void> {
  add(
    'claims-36000s.mp4',
    patched(dir, two, 'claims-36000s.mp4', claimDuration(36_000)),
    'a 2 s clip whose header claims 36,000 s',
  );
  add(
    'claims-half-second.mp4',
    patched(dir, thirty, 'claims-half-second.mp4', claimDuration(0.5)),
    'a 30 s stream whose header claims 0.5 s',
  );
  add(
    'cut-in-half.mp4',
    patched(dir, two, 'cut-in-half.mp4', (b) => b.subarray(0, b.length >> 1)),
    'a faststart MP4 cut in half',
  );
  add(
    'cut-before-moov.mp4',
    patched(dir, twoTail, 'cut-before-moov.mp4', (b) => b.subarray(0, b.indexOf('moov') - 8)),
    'an MP4 cut before its index',
  );
  add(
    'mdat-oversized.mp4',
    patched(dir, twoTail, 'mdat-oversized.mp4', (b) => {
      b.writeUInt32BE(0x7fffffff, b.indexOf('mdat') - 4);
      return b;
    }),
    'an mdat box that claims 2 GB',
  );
  add(
    'data-zeroed.mp4',
    patched(
      dir,
      two,
      'data-zeroed.mp4',
      spoilMdat(0.5, (n) => Buffer.alloc(n)),
    ),
    'an intact index over zeroed picture data',
  );
  add(
    'data-random.mp4',
    patched(
      dir,
      two,
      'data-random.mp4',
      spoilMdat(0.02, (n) => randomBytes(n)),
    ),
    'an intact index over random picture data',
  );
  add(
    'sps-zeroed.mp4',
    patched(dir, two, 'sps-zeroed.mp4', (b) => {
      const at = b.indexOf('avcC');
      b.fill(0, at + 10, at + 40);
      return b;
    }),
    'a damaged H.264 configuration (SPS)',
  );
  const webm = path.join(dir, 'base.webm');
  await fromLavfi(webm, 'testsrc2=size=160x120:rate=25:duration=2', [
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
  ]);
  add(
    'webm-cut.webm',
    patched(dir, webm, 'webm-cut.webm', (b) => b.subarray(0, Math.floor(b.length * 0.4))),
    'a WebM cut short',
  );
  const avi = path.join(dir, 'base.avi');
  await fromLavfi(avi, 'testsrc2=size=160x120:rate=25:duration=2', ['-c:v', 'mjpeg']);
  add(
    'avi-cut.avi',
    patched(dir, avi, 'avi-cut.avi', (b) => b.subarray(0, Math.floor(b.length * 0.5))),
    'an AVI cut short (no index)',
  );
}

/** Past the limits: a huge frame, over the length cap, 1,000 fps, a 10-hour gap. */
async function addOverLimits({ dir, add }: Corpus): Promise<void> {
  const huge = path.join(dir, 'huge-frame.mp4');
  await ffmpeg([...HUGE_FRAME, huge]);
  add('huge-frame.mp4', huge, 'an 8192x8192 frame (67 M pixels)');
  const long = path.join(dir, 'over-the-cap.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=s=32x32:r=1:d=601', '-c:v', 'libx264', long]);
  add('over-the-cap.mp4', long, '601 s, over the 600 s limit');
  const fast = path.join(dir, 'thousand-fps.mkv');
  await fromLavfi(fast, 'testsrc2=size=64x64:rate=1000:duration=0.5', ['-c:v', 'ffv1']);
  add('thousand-fps.mkv', fast, 'a frame rate of 1,000 fps');
  const gap = path.join(dir, 'gap.mkv');
  await syntheticClip(gap, { seconds: 2, extra: TEN_HOUR_GAP });
  add(
    'gap-10-hours.mkv',
    patched(dir, gap, 'gap-10-hours.mkv', (b) => {
      const at = b.indexOf(Buffer.from([0x44, 0x89, 0x88]));
      b.writeDoubleBE(2000, at + 3);
      return b;
    }),
    'a frame 10 hours after the others, the header saying 2 s',
  );
}

/** Two streams joined: 160x120, then frames of 8192x8192 the header does not mention. */
async function addFrameSizeBomb({ dir, add, write }: Corpus): Promise<void> {
  const parts = [
    ['160x120', path.join(dir, 'a.h264')],
    ['8192x8192', path.join(dir, 'b.h264')],
  ] as const;
  for (const [size, file] of parts) {
    await syntheticClip(file, { size, extra: ['-f', 'h264'] });
  }
  const joined = write('joined.h264', Buffer.concat(parts.map(([, f]) => fs.readFileSync(f))));
  const bomb = path.join(dir, 'frame-size-bomb.mkv');
  await ffmpeg(['-r', '25', '-i', joined, '-c', 'copy', bomb]);
  add(
    'frame-size-bomb.mkv',
    bomb,
    'small frames, then 8192x8192 frames the header does not mention',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: hostile-corpus.ts <dir>');
  for (const f of await generateCorpus(dir))
    console.log(
      `${f.name.padEnd(24)} ${fs.statSync(f.file).size.toString().padStart(10)} B  ${f.what}`,
    );
}
