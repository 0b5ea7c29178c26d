import fs from 'node:fs/promises';
import { guardArgs, safeInputArgs } from '../../engine/media/input';
import type { Demuxer, MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { ffmpeg, ffprobe, MediaError } from './ffmpeg';

interface ProbeStream {
  index?: number;
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
  format?: {
    format_name?: string;
    duration?: string;
    start_time?: string;
    tags?: Record<string, string>;
  };
}

/** Above this a "frame rate" is a broken header, not a video. */
const MAX_FPS = 240;

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

function containerOf(
  demuxer: Demuxer,
  brand: string,
  video: string,
  file: string,
): MediaInfo['container'] {
  if (demuxer === 'avi') return 'avi';
  if (demuxer === 'matroska')
    return ['vp8', 'vp9', 'av1'].includes(video) && !file.endsWith('.mkv') ? 'webm' : 'mkv';
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

/** Where the video stream's packets lie on the timeline: what a decoder will really get. */
export interface PacketTimeline {
  packets: number;
  /** First timestamp and end of the last packet (its timestamp plus its duration), in seconds. */
  start: number;
  end: number;
}

/**
 * Reads the timestamps of every packet of one stream that the decoder will output (demuxing
 * only, no decoding: about half a second for 36,000 packets). At most `maxPackets` are read; more
 * means more frames than the caps allow.
 */
async function packetTimeline(
  file: string,
  demuxer: Demuxer,
  stream: number,
  maxPackets: number,
  signal?: AbortSignal,
  /** `http` for an object in S3 read through its presigned URL. */
  protocol: 'file' | 'http' = 'file',
): Promise<PacketTimeline> {
  let stdout: Buffer;
  try {
    ({ stdout } = await ffprobe(
      [
        ...guardArgs(protocol),
        '-f',
        demuxer,
        '-v',
        'error',
        '-select_streams',
        String(stream),
        '-read_intervals',
        `%+#${maxPackets + 1}`,
        '-show_entries',
        'packet=pts_time,dts_time,duration_time,flags',
        '-of',
        'csv=p=0',
        file,
      ],
      { timeoutMs: 60_000, signal, what: "Reading the video's frames" },
    ));
  } catch (e) {
    if (e instanceof MediaError) throw e;
    throw new MediaError('The video could not be read: the file is corrupt or truncated.');
  }
  let packets = 0;
  let start = Infinity;
  let end = -Infinity;
  for (const line of stdout.toString().split('\n')) {
    const [ptsText, dtsText, durText, flags = ''] = line.split(',');
    // Packets an edit list cuts away (flag D) are decoded only to be dropped: not in the video.
    if (!line || flags.includes('D')) continue;
    const [pts, dts, dur] = [Number(ptsText), Number(dtsText), Number(durText)];
    const at = Number.isFinite(pts) ? pts : dts;
    if (!Number.isFinite(at)) continue;
    packets++;
    start = Math.min(start, at);
    end = Math.max(end, at + (Number.isFinite(dur) && dur > 0 ? dur : 0));
  }
  return { packets, start, end };
}

/** A gap between two accounts of a duration that is more than rounding and edit lists. */
export const durationTolerance = (seconds: number) => Math.max(0.5, 0.02 * seconds);

const secs = (s: number) => `${s.toFixed(1)} s`;

/** The Matroska DURATION tag, "00:00:10.292000000", in seconds. */
function tagSeconds(tag: string | undefined): number | null {
  const m = tag && /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(tag.trim());
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}

/** A stream's own account of its length: its header duration, else its DURATION tag. */
function declaredSeconds(s: ProbeStream): number | null {
  const d = Number(s.duration);
  return Number.isFinite(d) && d > 0 ? d : tagSeconds(s.tags?.DURATION);
}

/**
 * What the video stream's header declares. An AVI's stream header counts its frames (nb_frames),
 * while ffprobe recomputes the duration from the frames it finds when the index is missing, so a
 * cut AVI would declare exactly what is left: its frame count at its rate is the declaration.
 * (Not for MP4: there nb_frames also counts the samples an edit list cuts away.)
 */
function declaredVideoSeconds(s: ProbeStream, demuxer: Demuxer, fps: number): number | null {
  const frames = Number(s.nb_frames);
  if (demuxer === 'avi' && Number.isFinite(frames) && frames > 0)
    return Math.max(frames / fps, declaredSeconds(s) ?? 0);
  return declaredSeconds(s);
}

/**
 * The one duration the price, the caps and the pipeline use: how long the video stream's frames
 * run, read from the frames themselves (packet timestamps), cross-checked against what the
 * stream's header and the container say. Headers that disagree beyond the tolerance are a
 * refusal: a 2 s clip whose container claims 36,000 s, a 30 s stream whose container claims
 * 0.5 s, and a file cut short whose header still declares its whole length.
 */
export function videoDuration(o: {
  timeline: PacketTimeline;
  /** The video stream's header duration (or tag), if it has one. */
  declaredVideo: number | null;
  /** The other streams' declared durations (audio may run on a little past the video). */
  declaredOthers: number[];
  container: number | null;
  containerStart: number;
  maxSeconds: number;
}): number {
  const { timeline } = o;
  if (timeline.packets === 0 || !(timeline.end > timeline.start))
    throw new MediaError('The video stream has no frames.');
  const frames = timeline.end - timeline.start;
  if (frames > o.maxSeconds)
    throw new MediaError(
      `The video is ${frames.toFixed(1)} s long; the limit is ${o.maxSeconds} s.`,
    );
  if (o.declaredVideo !== null && o.declaredVideo > frames + durationTolerance(o.declaredVideo)) {
    throw new MediaError(
      'The file is incomplete: its video stream declares ' +
        `${secs(o.declaredVideo)} but its frames stop after ` +
        `${secs(frames)}. Upload the whole file again.`,
    );
  }
  if (o.declaredVideo !== null && o.declaredVideo < frames - durationTolerance(frames)) {
    throw new MediaError(
      `The video stream declares ${secs(o.declaredVideo)} but its ` +
        `frames run for ${secs(frames)}; a video whose length cannot be ` +
        'trusted is refused.',
    );
  }
  if (o.container !== null) {
    const videoEnd = timeline.end - o.containerStart;
    const longest = Math.max(videoEnd, ...o.declaredOthers);
    if (
      o.container < videoEnd - durationTolerance(videoEnd) ||
      o.container > longest + durationTolerance(longest)
    ) {
      throw new MediaError(
        `The file's container says it lasts ${secs(o.container)} but ` +
          `its video stream runs for ${secs(frames)}; a video whose ` +
          'length cannot be trusted is refused.',
      );
    }
  }
  return frames;
}

/** Headers can lie: decoding one frame catches truncated and corrupt files at upload time. */
async function decodeFirstFrame(
  demuxer: Demuxer,
  file: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await ffmpeg(
      [
        '-v',
        'error',
        '-xerror',
        ...safeInputArgs({ demuxer }, file, env().MAX_FRAME_PIXELS),
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-f',
        'null',
        '-',
      ],
      { timeoutMs: 30_000, signal },
    );
  } catch {
    throw new MediaError('The video could not be decoded: the file is corrupt or truncated.');
  }
}

/**
 * A local file, or (headers only) an object of the store at a short presigned URL with its size.
 */
export type ProbeSource = string | { url: string; bytes: number };

/**
 * The smallest frame side Keyout mattes. Below it the models see next to nothing, and the
 * encoders refuse the frame: a 1x1 video was charged, then failed in the worker. Refused at
 * upload, before any charge (docs/api.md, "Limits").
 */
export const MIN_FRAME_SIDE = 32;

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
  if (remote && !opts.metadataOnly)
    throw new Error('Only headers are probed at a URL; decoding reads local files');
  const file = remote ? source.url : source;
  const size = remote ? source.bytes : (await fs.stat(file)).size;
  let json: ProbeJson;
  try {
    const { stdout } = await ffprobe(
      [
        ...guardArgs(remote ? 'http' : 'file'),
        '-v',
        'error',
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        file,
      ],
      { timeoutMs: 30_000, signal: opts.signal, what: 'Probing the video' },
    );
    json = JSON.parse(stdout.toString()) as ProbeJson;
  } catch (e) {
    if (e instanceof MediaError) throw e;
    throw new MediaError(NOT_A_VIDEO);
  }
  const demuxer = demuxerOf(json.format?.format_name ?? '');
  if (!demuxer) throw new MediaError(NOT_A_VIDEO);
  const video = json.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video?.width || !video.height || !video.codec_name) {
    throw new MediaError('The file has no video stream.');
  }
  if (Math.min(video.width, video.height) < MIN_FRAME_SIDE) {
    throw new MediaError(
      `The video frame is ${video.width}x${video.height}; Keyout ` +
        `needs at least ${MIN_FRAME_SIDE} pixels on each side.`,
    );
  }
  const pixels = video.width * video.height;
  if (pixels > MAX_FRAME_PIXELS) {
    throw new MediaError(
      `The video frame is ${video.width}x${video.height} (${pixels} ` +
        `pixels); the limit is ${MAX_FRAME_PIXELS} pixels per frame.`,
    );
  }
  const avg = rate(video.avg_frame_rate);
  const real = rate(video.r_frame_rate);
  const fps = avg || real;
  if (!fps || fps > MAX_FPS) throw new MediaError('The video has no usable frame rate.');
  const maxPackets = Math.ceil(MAX_VIDEO_SECONDS * MAX_FPS);
  const timeline = await packetTimeline(
    file,
    demuxer,
    video.index ?? 0,
    maxPackets,
    opts.signal,
    remote ? 'http' : 'file',
  );
  if (timeline.packets > maxPackets)
    throw new MediaError(
      `The video has more frames than ${MAX_VIDEO_SECONDS} s at ${MAX_FPS} fps.`,
    );
  const container = Number(json.format?.duration);
  const duration = videoDuration({
    timeline,
    declaredVideo: declaredVideoSeconds(video, demuxer, fps),
    declaredOthers: (json.streams ?? [])
      .filter((st) => st !== video)
      .flatMap((st) => declaredSeconds(st) ?? []),
    container: Number.isFinite(container) && container > 0 ? container : null,
    containerStart: Number(json.format?.start_time) || 0,
    maxSeconds: MAX_VIDEO_SECONDS,
  });
  const rotation = rotationOf(video);
  const swap = rotation === 90 || rotation === 270;
  const audio = json.streams?.find((s) => s.codec_type === 'audio');
  if (!opts.metadataOnly) await decodeFirstFrame(demuxer, file, opts.signal);
  return {
    demuxer,
    container: containerOf(
      demuxer,
      json.format?.tags?.major_brand ?? '',
      video.codec_name,
      remote ? '' : file,
    ),
    width: swap ? video.height : video.width,
    height: swap ? video.width : video.height,
    codedWidth: video.width,
    codedHeight: video.height,
    rotation,
    fps,
    fpsRational: avg ? video.avg_frame_rate! : video.r_frame_rate!,
    variableFrameRate: Boolean(avg && real && Math.abs(avg - real) / real > 0.01),
    duration,
    // Frames on the normalised timeline (constant rate over the duration): what the pipeline makes.
    frameCount: Math.max(1, Math.round(duration * fps)),
    videoCodec: video.codec_name,
    pixFmt: video.pix_fmt ?? 'unknown',
    hasAudio: Boolean(audio),
    audioCodec: audio?.codec_name ?? null,
    sizeBytes: size,
  };
}
