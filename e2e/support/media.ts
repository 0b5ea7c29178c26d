import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'e2e-artifacts');
export const CLIP = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'testdata', 'videos', 'liveportrait_d12_talking_glasses_512.mp4');
export const hasClip = fs.existsSync(CLIP);

/**
 * Min and max of the alpha plane over the whole WebM, decoded with libvpx (ffmpeg's built-in
 * VP9 decoder ignores the alpha stream and reports 255 everywhere).
 */
export function alphaRange(file: string): { min: number; max: number; frames: number } {
  const out = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-c:v', 'libvpx-vp9', '-i', file, '-vf', 'alphaextract,signalstats,metadata=print:file=-', '-f', 'null', '-'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const mins = [...out.matchAll(/lavfi\.signalstats\.YMIN=(\d+)/g)].map((m) => Number(m[1]));
  const maxs = [...out.matchAll(/lavfi\.signalstats\.YMAX=(\d+)/g)].map((m) => Number(m[1]));
  return { min: Math.min(...mins), max: Math.max(...maxs), frames: mins.length };
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
  return path.join(ARTIFACTS, 'screenshots', `${name}.png`);
}
