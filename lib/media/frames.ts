import { guardArgs } from '../../engine/media/input';
import { ffprobe, MediaError } from './ffmpeg';

/** Facts ffprobe reports about a file we wrote (or a mask we own). */
export interface ProbedFile {
  formatName: string;
  formatDuration: number | null;
  video: {
    codec: string;
    width: number;
    height: number;
    pixFmt: string;
    fps: number;
    frames: number;
    duration: number | null;
    codecTag: string;
    tags: Record<string, string>;
  } | null;
  audio: { codec: string; duration: number | null } | null;
}

interface Stream {
  codec_type?: string;
  codec_name?: string;
  codec_tag_string?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_read_packets?: string;
  duration?: string;
  tags?: Record<string, string>;
}

const rate = (r: string | undefined) => {
  const [n, d] = (r ?? '').split('/').map(Number);
  return n && d ? n / d : 0;
};
const num = (v: string | undefined) =>
  v !== undefined && Number.isFinite(Number(v)) ? Number(v) : null;
/** Matroska's per-stream DURATION tag, "00:00:10.292000000" → 10.292. */
const clock = (v: string | undefined) =>
  v && /^\d+:\d+:[\d.]+$/.test(v) ? v.split(':').reduce((t, x) => t * 60 + Number(x), 0) : null;

/**
 * Probes a file with its demuxer forced; counts packets (cheap, no decoding) for the frame count.
 */
export async function probeFile(
  file: string,
  demuxer: string,
  signal?: AbortSignal,
): Promise<ProbedFile> {
  const { stdout } = await ffprobe(
    [
      '-v',
      'error',
      '-f',
      demuxer,
      ...guardArgs().slice(0, 2),
      '-count_packets',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ],
    { timeoutMs: 120_000, signal },
  );
  const json = JSON.parse(stdout.toString()) as {
    streams?: Stream[];
    format?: { format_name?: string; duration?: string };
  };
  const v = json.streams?.find((s) => s.codec_type === 'video');
  const a = json.streams?.find((s) => s.codec_type === 'audio');
  return {
    formatName: json.format?.format_name ?? '',
    formatDuration: num(json.format?.duration),
    video: v
      ? {
          codec: v.codec_name ?? '',
          width: v.width ?? 0,
          height: v.height ?? 0,
          pixFmt: v.pix_fmt ?? '',
          fps: rate(v.avg_frame_rate) || rate(v.r_frame_rate),
          frames: Number(v.nb_read_packets ?? 0),
          duration: num(v.duration) ?? clock(v.tags?.DURATION),
          codecTag: v.codec_tag_string ?? '',
          tags: Object.fromEntries(
            Object.entries(v.tags ?? {}).map(([k, val]) => [k.toLowerCase(), val]),
          ),
        }
      : null,
    audio: a ? { codec: a.codec_name ?? '', duration: num(a.duration) } : null,
  };
}

/** Frames in a video we own (a mask): one packet per frame for intra codecs such as FFV1. */
export async function countFrames(
  file: string,
  demuxer: string,
  signal?: AbortSignal,
): Promise<number> {
  const probed = await probeFile(file, demuxer, signal).catch(() => null);
  const frames = probed?.video?.frames ?? 0;
  if (!frames) throw new MediaError('The mask file has no readable frames.');
  return frames;
}
