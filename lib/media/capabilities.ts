import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OutputFormat } from '../../engine/formats';
import { ffmpeg, MediaError } from './ffmpeg';
import { alphaLayerUnits, encodeHevcAlpha } from './hevc-alpha';
import { libav } from './libav';

/**
 * What this server can really do, detected once per process. Each answer is proven by a tiny
 * encode through the same code the outputs use, not only by what a build advertises.
 */

let hevcAlpha: Promise<boolean> | undefined;

/**
 * True when hevc_alpha can be made here: node-av (FFmpeg 8 in-process) loads and its libx265
 * writes a real alpha layer (layer-1 NAL units) into the MOV.
 */
export function canEncodeHevcAlpha(): Promise<boolean> {
  hevcAlpha ??= detectHevcAlpha().catch(() => false);
  return hevcAlpha;
}

async function detectHevcAlpha(): Promise<boolean> {
  if (!(await libav())) return false;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keyout-hevc-alpha-'));
  try {
    const intermediate = path.join(dir, 'probe.nut');
    const output = path.join(dir, 'probe.mov');
    await ffmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=s=64x64:r=10:d=0.3,format=yuva420p,geq=lum=p(X\\,Y):a=X*4',
        '-c:v',
        'ffv1',
        '-pix_fmt',
        'yuva420p',
        '-f',
        'nut',
        intermediate,
      ],
      { timeoutMs: 30_000 },
    );
    await encodeHevcAlpha({
      kind: 'hevc-alpha',
      intermediate,
      output,
      fpsRational: '10/1',
      hasAudio: false,
    });
    return (await alphaLayerUnits(output)) > 0;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The message a request for hevc_alpha gets where it cannot be made. */
export const HEVC_ALPHA_UNAVAILABLE =
  'HEVC with alpha (hevc_alpha) needs FFmpeg 8 with x265 4, which ' +
  'Keyout runs in-process through the optional node-av package; ' +
  ('it is not installed or does not load on this server. Use ' +
    'webm_vp9 (Chrome, Firefox), mov_prores (Safari, Final Cut, ' +
    'Premiere) or stacked_video instead.');

const DETECT: Record<
  NonNullable<OutputFormat['requires']>,
  { has: () => Promise<boolean>; missing: string }
> = {
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
