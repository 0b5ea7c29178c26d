import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { cutClip } from '../../lib/media/fixtures';
import { vp9WithAlpha } from '../../tests/support/frames';

export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'e2e-artifacts');
export const CLIP = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'testdata',
  'videos',
  'liveportrait_d12_talking_glasses_512.mp4',
);
export const hasClip = fs.existsSync(CLIP);

/** Min and max of the alpha plane over the whole VP9 WebM, and its frame count. */
export function alphaRange(file: string): { min: number; max: number; frames: number } {
  const out = execFileSync(
    'ffmpeg',
    [
      ...['-v', 'error', ...vp9WithAlpha(file)],
      ...['-vf', 'alphaextract,signalstats,metadata=print:file=-', '-f', 'null', '-'],
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const mins = [...out.matchAll(/lavfi\.signalstats\.YMIN=(\d+)/g)].map((m) => Number(m[1]));
  const maxs = [...out.matchAll(/lavfi\.signalstats\.YMAX=(\d+)/g)].map((m) => Number(m[1]));
  return { min: Math.min(...mins), max: Math.max(...maxs), frames: mins.length };
}

/**
 * The mean RGB of the first frame's 16×16 square at (16, 16), where the test clip shows
 * background: whatever replaced the background shows there.
 */
export function cornerColour(file: string): Buffer {
  return execFileSync('ffmpeg', [
    ...['-v', 'error', '-i', file, '-frames:v', '1'],
    ...['-vf', 'crop=16:16:16:16,scale=1:1:flags=area,format=rgb24', '-f', 'rawvideo', '-'],
  ]);
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
  return path.join(ARTIFACTS, 'screenshots', `${name}.png`);
}

/** Stream codecs of a file, by type: `{ video: ['vp9'], audio: ['opus'] }`. */
export function streamCodecs(file: string): Record<string, string[]> {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name', '-of', 'csv=p=0', file],
    { encoding: 'utf8' },
  );
  const codecs: Record<string, string[]> = {};
  for (const line of out.trim().split('\n')) {
    const [codec, type] = line.split(',');
    (codecs[type!] ??= []).push(codec!);
  }
  return codecs;
}

/** The first `seconds` of the test clip, with its sound (AAC), as the studio's tests feed it. */
export function clipCut(seconds: number): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const out = path.join(ARTIFACTS, `studio-clip-${seconds}s.mp4`);
  return cutClip(CLIP, out, seconds, { audio: true });
}

/** The names and sizes inside a ZIP, read by yauzl (not by the code that wrote it). */
export function zipEntries(file: string): Promise<{ name: string; bytes: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries: { name: string; bytes: number }[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        entries.push({ name: e.fileName, bytes: e.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
