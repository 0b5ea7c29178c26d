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

/**
 * ffprobe's streams and format of a file, every frame decoded and counted: an independent look,
 * never the probe's own code. `demuxer` forces one (`['-f', 'apng']`) where ffprobe's guess is off.
 */
export async function countedProbe(
  file: string,
  demuxer: string[] = [],
): Promise<{ streams: CountedStream[]; format: { duration?: string } }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    ...demuxer,
    '-count_frames',
    '-show_streams',
    '-show_format',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout) as { streams: CountedStream[]; format: { duration?: string } };
}

/** How many frames the decoder outputs from a file's first video stream. */
export async function decodedFrames(file: string): Promise<number> {
  const { streams } = await countedProbe(file);
  return Number(streams.find((s) => s.codec_type === 'video')!.nb_read_frames);
}
