import fs from 'node:fs/promises';
import { guardArgs, safeInputArgs } from '../../engine/media/input';
import type { Demuxer, MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { ffmpeg, ffprobe, MediaError } from './ffmpeg';

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  disposition?: { attached_pic?: number };
}
interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
}

const NOT_A_VIDEO =
  'The file is not a supported video. Supported containers: MP4, MOV, M4V, WebM, MKV, AVI.';

function rate(r: string | undefined): number {
  if (!r) return 0;
  const [n, d] = r.split('/').map(Number);
  return n && d ? n / d : 0;
}

function demuxerOf(formatName: string): Demuxer | null {
  const names = formatName.split(',');
  if (names.includes('mov')) return 'mov';
  if (names.includes('matroska')) return 'matroska';
  if (names.includes('avi')) return 'avi';
  return null;
}

function containerOf(demuxer: Demuxer, brand: string, video: string, file: string): MediaInfo['container'] {
  if (demuxer === 'avi') return 'avi';
  if (demuxer === 'matroska') return ['vp8', 'vp9', 'av1'].includes(video) && !file.endsWith('.mkv') ? 'webm' : 'mkv';
  if (brand.startsWith('qt')) return 'mov';
  if (brand.startsWith('M4V')) return 'm4v';
  return 'mp4';
}

function rotationOf(s: ProbeStream): MediaInfo['rotation'] {
  const fromSide = s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const raw = fromSide ?? Number(s.tags?.rotate ?? 0);
  // ffprobe reports the display matrix counter-clockwise (e.g. -90 for a portrait phone video).
  const cw = ((-raw % 360) + 360) % 360;
  return cw === 90 || cw === 180 || cw === 270 ? cw : 0;
}

/** Headers can lie: decoding one frame catches truncated and corrupt files at upload time. */
async function decodeFirstFrame(demuxer: Demuxer, file: string, signal?: AbortSignal): Promise<void> {
  try {
    await ffmpeg(
      ['-v', 'error', '-xerror', ...safeInputArgs({ demuxer }, file, env().MAX_FRAME_PIXELS), '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'],
      { timeoutMs: 30_000, signal },
    );
  } catch {
    throw new MediaError('The video could not be decoded: the file is corrupt or truncated.');
  }
}

/** A local file, or (headers only) an object of the store at a short presigned URL with its size. */
export type ProbeSource = string | { url: string; bytes: number };

/**
 * Probes an untrusted upload under the container allow-list and the pixel and duration caps.
 * Throws MediaError with a message fit for the job's failure reason. `metadataOnly` skips the
 * one-frame decode: the web process reads headers (ffprobe) to price a job at start, while
 * decoding stays in workers, which probe again in full.
 */
export async function probeVideo(
  source: ProbeSource,
  opts: { signal?: AbortSignal; metadataOnly?: boolean } = {},
): Promise<MediaInfo> {
  const { MAX_FRAME_PIXELS, MAX_VIDEO_SECONDS } = env();
  const remote = typeof source !== 'string';
  if (remote && !opts.metadataOnly) throw new Error('Only headers are probed at a URL; decoding reads local files');
  const file = remote ? source.url : source;
  const size = remote ? source.bytes : (await fs.stat(file)).size;
  let json: ProbeJson;
  try {
    const { stdout } = await ffprobe(
      [...guardArgs(remote ? 'http' : 'file'), '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      { timeoutMs: 30_000, signal: opts.signal },
    );
    json = JSON.parse(stdout.toString()) as ProbeJson;
  } catch (e) {
    if (e instanceof MediaError) throw new MediaError(`Probing the video ${e.message.replace(/^\S+ /, '')}`);
    throw new MediaError(NOT_A_VIDEO);
  }
  const demuxer = demuxerOf(json.format?.format_name ?? '');
  if (!demuxer) throw new MediaError(NOT_A_VIDEO);
  const video = json.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video?.width || !video.height || !video.codec_name) {
    throw new MediaError('The file has no video stream.');
  }
  const pixels = video.width * video.height;
  if (pixels > MAX_FRAME_PIXELS) {
    throw new MediaError(
      `The video frame is ${video.width}x${video.height} (${pixels} pixels); the limit is ${MAX_FRAME_PIXELS} pixels per frame.`,
    );
  }
  const duration = Number(json.format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new MediaError('The video has no readable duration.');
  }
  // The cap is on the video stream, the part that gets processed: a container often says a
  // little more (audio that runs on, edit lists), and a recording of exactly the limit must
  // not be refused for that.
  const streamSeconds = Number(video.duration);
  const videoSeconds = Number.isFinite(streamSeconds) && streamSeconds > 0 ? streamSeconds : duration;
  if (videoSeconds > MAX_VIDEO_SECONDS) {
    throw new MediaError(
      `The video is ${videoSeconds.toFixed(1)} s long; the limit is ${MAX_VIDEO_SECONDS} s.`,
    );
  }
  const avg = rate(video.avg_frame_rate);
  const real = rate(video.r_frame_rate);
  const fps = avg || real;
  if (!fps || fps > 240) throw new MediaError('The video has no usable frame rate.');
  const rotation = rotationOf(video);
  const swap = rotation === 90 || rotation === 270;
  const audio = json.streams?.find((s) => s.codec_type === 'audio');
  const nb = Number(video.nb_frames);
  if (!opts.metadataOnly) await decodeFirstFrame(demuxer, file, opts.signal);
  return {
    demuxer,
    container: containerOf(demuxer, json.format?.tags?.major_brand ?? '', video.codec_name, remote ? '' : file),
    width: swap ? video.height : video.width,
    height: swap ? video.width : video.height,
    codedWidth: video.width,
    codedHeight: video.height,
    rotation,
    fps,
    fpsRational: avg ? video.avg_frame_rate! : video.r_frame_rate!,
    variableFrameRate: Boolean(avg && real && Math.abs(avg - real) / real > 0.01),
    duration,
    frameCount: Number.isFinite(nb) && nb > 0 ? nb : Math.max(1, Math.round(duration * fps)),
    videoCodec: video.codec_name,
    pixFmt: video.pix_fmt ?? 'unknown',
    hasAudio: Boolean(audio),
    audioCodec: audio?.codec_name ?? null,
    sizeBytes: size,
  };
}
