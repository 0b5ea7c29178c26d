import { ffmpeg } from '../../lib/media/ffmpeg';

/**
 * Decodes a video or image sequence to raw frames of `pixFmt`, `bytes` each (up to `maxFrames`).
 */
async function readRawFrames(
  args: string[],
  pixFmt: 'gray' | 'rgba',
  bytes: number,
  maxFrames?: number,
): Promise<Uint8Array[]> {
  const { stdout } = await ffmpeg(
    [
      '-v',
      'error',
      ...args,
      ...(maxFrames ? ['-frames:v', String(maxFrames)] : []),
      '-f',
      'rawvideo',
      '-pix_fmt',
      pixFmt,
      'pipe:1',
    ],
    {
      timeoutMs: 600_000,
    },
  );
  const frames: Uint8Array[] = [];
  for (let off = 0; off + bytes <= stdout.length; off += bytes)
    frames.push(new Uint8Array(stdout.subarray(off, off + bytes)));
  return frames;
}

/** Decodes a greyscale video or image sequence (masks) to one byte per pixel per frame. */
export const readGrayFrames = (args: string[], width: number, height: number, maxFrames?: number) =>
  readRawFrames(args, 'gray', width * height, maxFrames);

/** Decodes a video or image to RGBA, four bytes per pixel per frame. */
export const readRgbaFrames = (args: string[], width: number, height: number, maxFrames?: number) =>
  readRawFrames(args, 'rgba', width * height * 4, maxFrames);

export function parseArgs(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out.set(a.slice(2), next);
      i++;
    } else out.set(a.slice(2), 'true');
  }
  return out;
}

export function table(rows: Record<string, string | number>[]): string {
  if (!rows.length) return '';
  // Every column any row has, in the order they first appear.
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : (v ?? '');
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => `| ${vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(cols),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
  ].join('\n');
}
