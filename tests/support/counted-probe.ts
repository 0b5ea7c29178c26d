import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A stream as ffprobe reports it once it has decoded and counted every frame. */
export interface CountedStream {
  codec_type: string;
  codec_name: string;
  codec_tag_string: string;
  pix_fmt?: string;
  width: number;
  height: number;
  /** The frames the decoder output, whatever the headers say. */
  nb_read_frames: string;
  avg_frame_rate: string;
  tags?: Record<string, string>;
}

/** A stream as ffprobe reports it with its packets counted (nothing decoded). */
export interface PacketCountedStream {
  codec_type: string;
  codec_name: string;
  codec_tag_string?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  nb_read_packets?: string;
  duration?: string;
  tags?: Record<string, string>;
}

interface Probed<S> {
  streams: S[];
  format: { duration?: string };
}

/** ffprobe's streams and format of a file as JSON, with its frames or only its packets counted. */
async function probeCounting<S>(
  file: string,
  demuxer: string[],
  count: '-count_frames' | '-count_packets',
): Promise<Probed<S>> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', ...demuxer, count],
    ...['-show_streams', '-show_format', '-of', 'json', file],
  ]);
  return JSON.parse(stdout) as Probed<S>;
}

/**
 * ffprobe's streams and format of a file, every frame decoded and counted: an independent look,
 * never the probe's own code. `demuxer` forces one (`['-f', 'apng']`) where ffprobe's guess is off.
 */
export function countedProbe(file: string, demuxer: string[] = []): Promise<Probed<CountedStream>> {
  return probeCounting(file, demuxer, '-count_frames');
}

/** The same look with only the packets counted: quicker, where the headers can be trusted. */
export function packetCountedProbe(
  file: string,
  demuxer: string[] = [],
): Promise<Probed<PacketCountedStream>> {
  return probeCounting(file, demuxer, '-count_packets');
}

/**
 * Chosen fields of a file's streams (`entries`: ffprobe's show_entries, e.g.
 * `stream=codec_name,width`), or of its first video stream alone: nothing decoded.
 */
export async function streamEntries<S>(
  file: string,
  entries: string,
  o: { firstVideo?: boolean } = {},
): Promise<S[]> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', ...(o.firstVideo ? ['-select_streams', 'v:0'] : [])],
    ...['-show_entries', entries, '-of', 'json', file],
  ]);
  return (JSON.parse(stdout) as { streams: S[] }).streams;
}

/** How many frames the decoder outputs from a file's first video stream. */
export async function decodedFrames(file: string): Promise<number> {
  const { streams } = await countedProbe(file);
  return Number(streams.find((s) => s.codec_type === 'video')!.nb_read_frames);
}
