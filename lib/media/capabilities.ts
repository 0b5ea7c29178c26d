import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hevcAlphaAdvertised, hevcLayerCounts } from '../../engine/media/capabilities';
import type { OutputFormat } from '../../engine/formats';
import { ffmpeg, MediaError } from './ffmpeg';

/**
 * What the local ffmpeg can really do, detected once per process. Each answer is proven by a
 * tiny encode, not only by what the build advertises.
 */

let hevcAlpha: Promise<boolean> | undefined;

/** True when this ffmpeg writes HEVC with a real alpha layer (FFmpeg 7.1+ with x265 4+). */
export function canEncodeHevcAlpha(): Promise<boolean> {
  hevcAlpha ??= detectHevcAlpha().catch(() => false);
  return hevcAlpha;
}

async function detectHevcAlpha(): Promise<boolean> {
  const [version, help] = await Promise.all([ffmpeg(['-version']), ffmpeg(['-h', 'encoder=libx265'])]);
  if (!hevcAlphaAdvertised(version.stdout.toString(), help.stdout.toString())) return false;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keyout-hevc-alpha-'));
  try {
    const file = path.join(dir, 'probe.hevc');
    await ffmpeg(
      [
        '-f', 'lavfi', '-i', 'testsrc2=s=64x64:r=10:d=0.3,format=yuva420p,geq=lum=p(X\\,Y):a=X*4',
        '-c:v', 'libx265', '-pix_fmt', 'yuva420p', '-x265-params', 'log-level=error', '-f', 'hevc', file,
      ],
      { timeoutMs: 30_000 },
    );
    const layers = hevcLayerCounts(await fs.readFile(file));
    return [...layers.keys()].some((layer) => layer > 0);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The message a job fails with when hevc_alpha is asked of an ffmpeg that cannot make it. */
export const HEVC_ALPHA_UNAVAILABLE =
  'HEVC with alpha (hevc_alpha) needs FFmpeg 7.1 or newer built with x265 4.0 or newer, which this server does not have. ' +
  'Use webm_vp9 (Chrome, Firefox), mov_prores (Safari, Final Cut, Premiere) or stacked_video instead.';

const DETECT: Record<NonNullable<OutputFormat['requires']>, { has: () => Promise<boolean>; missing: string }> = {
  'hevc-alpha': { has: canEncodeHevcAlpha, missing: HEVC_ALPHA_UNAVAILABLE },
};

/** Why this host cannot make the format, or null when it can. */
export async function unavailableReason(format: OutputFormat): Promise<string | null> {
  if (!format.requires) return null;
  const cap = DETECT[format.requires];
  return (await cap.has()) ? null : cap.missing;
}

export async function assertCapability(format: OutputFormat): Promise<void> {
  const reason = await unavailableReason(format);
  if (reason) throw new MediaError(reason);
}
