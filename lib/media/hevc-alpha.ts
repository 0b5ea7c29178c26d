import type { Frame } from 'node-av/lib';
import { hevcLayerCounts } from '../../engine/media/capabilities';
import type { PlannedFinish } from '../../engine/media/render-plan';
import { ffmpeg, MediaError } from './ffmpeg';
import { requireLibav } from './libav';

type HevcFinish = Extract<PlannedFinish, { kind: 'hevc-alpha' }>;

/**
 * x265 settings of hevc_alpha: fast enough for a small CPU server (as the other formats' presets).
 */
export const HEVC_ALPHA_X265 = { preset: 'veryfast', crf: 24, 'x265-params': 'log-level=error' };

/**
 * hevc_alpha's last step, in-process with FFmpeg 8 (node-av): the branch's intermediate (FFV1
 * yuva420p, AAC, in NUT) → libx265 with its alpha layer (x265 4), tagged `hvc1`, in MOV; the
 * audio is copied. Frames are re-stamped on the output's exact rate.
 */
export async function encodeHevcAlpha(f: HevcFinish, signal?: AbortSignal): Promise<void> {
  const av = await requireLibav('HEVC with alpha (hevc_alpha)');
  const input = await av.Demuxer.open(f.intermediate, { format: 'nut' });
  const closers: (() => unknown)[] = [() => input.close()];
  try {
    const video = input.video();
    if (!video) throw new MediaError('The hevc_alpha intermediate has no video.');
    const audio = f.hasAudio ? input.audio() : undefined;
    const decoder = await av.Decoder.create(video);
    closers.push(() => decoder.close());
    const [num, den] = f.fpsRational.split('/').map(Number) as [number, number?];
    const rate = new av.Rational(num, den ?? 1);
    const tick = new av.Rational(den ?? 1, num);
    const encoder = await av.Encoder.create(av.constants.FF_ENCODER_LIBX265, {
      decoder,
      options: HEVC_ALPHA_X265,
      context: { timeBase: tick, framerate: rate },
      configure: (ctx) => {
        ctx.codecTag = 'hvc1';
      },
    });
    closers.push(() => encoder.close());
    const output = await av.Muxer.open(f.output, { format: 'mov' });
    closers.push(() => output.close());
    const videoOut = output.addStream(encoder);
    const audioOut = audio ? output.addStream(audio) : -1;
    // NUT's codec tag means nothing in MOV: let the muxer pick its own.
    const copied = output.getStream(audioOut);
    if (copied) copied.codecpar.codecTag = 0;
    let n = 0n;
    /** One frame per tick of the output's rate, whatever the intermediate's clock said. */
    const restamp = (frame: Frame) => {
      frame.pts = n++;
      frame.duration = 1n;
      frame.timeBase = tick;
    };
    const encode = async (frame: Frame | null) => {
      for await (const packet of encoder.packets(frame))
        if (packet) await output.writePacket(packet, videoOut);
    };
    for await (const packet of input.packets()) {
      if (signal?.aborted) throw new MediaError('Encoding the hevc_alpha output was cancelled.');
      if (!packet) break;
      if (packet.streamIndex === video.index) {
        for await (const frame of decoder.frames(packet)) {
          if (!frame) continue;
          restamp(frame);
          await encode(frame);
        }
      } else if (audio && packet.streamIndex === audio.index) {
        await output.writePacket(packet, audioOut);
      }
    }
    for await (const frame of decoder.frames(null)) {
      if (!frame) continue;
      restamp(frame);
      await encode(frame);
    }
    await encode(null);
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** NAL units per layer (nuh_layer_id) in a MOV's HEVC stream, read by the system ffmpeg. */
export async function hevcLayers(file: string, signal?: AbortSignal): Promise<Map<number, number>> {
  const { stdout } = await ffmpeg(
    [
      '-v',
      'error',
      '-f',
      'mov',
      '-protocol_whitelist',
      'file',
      '-i',
      file,
      '-map',
      '0:v:0',
      '-c:v',
      'copy',
      '-bsf:v',
      'hevc_mp4toannexb',
      '-f',
      'hevc',
      'pipe:1',
    ],
    { timeoutMs: 300_000, signal },
  );
  return hevcLayerCounts(stdout);
}

/** NAL units of the alpha layer (nuh_layer_id > 0) in a MOV's HEVC stream. */
export async function alphaLayerUnits(file: string, signal?: AbortSignal): Promise<number> {
  return [...(await hevcLayers(file, signal)).entries()]
    .filter(([layer]) => layer > 0)
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * The alpha planes of the chosen frames (width × height bytes each), decoded by FFmpeg 8
 * in-process: FFmpeg before 8 cannot decode the alpha layer at all.
 */
export async function decodeAlphaLayer(
  file: string,
  indices: number[],
  signal?: AbortSignal,
): Promise<Uint8Array[]> {
  const av = await requireLibav('Reading the alpha layer of HEVC');
  const input = await av.Demuxer.open(file, { format: 'mov' });
  const closers: (() => unknown)[] = [() => input.close()];
  try {
    const video = input.video();
    if (!video) throw new MediaError('The HEVC file has no video.');
    const decoder = await av.Decoder.create(video);
    closers.push(() => decoder.close());
    const wanted = new Set(indices);
    const last = Math.max(...indices);
    const planes: Uint8Array[] = [];
    let n = 0;
    for await (const frame of decoder.frames(input.packets(video.index))) {
      if (signal?.aborted) throw new MediaError('Validation was cancelled.');
      if (!frame) continue;
      if (wanted.has(n)) {
        const alpha = frame.data?.[3];
        if (frame.format !== av.constants.AV_PIX_FMT_YUVA420P || !alpha)
          throw new MediaError(`frame ${n} decoded without an alpha layer.`);
        const stride = frame.linesize[3]!;
        const plane = new Uint8Array(frame.width * frame.height);
        for (let y = 0; y < frame.height; y++)
          plane.set(alpha.subarray(y * stride, y * stride + frame.width), y * frame.width);
        planes.push(plane);
      }
      if (++n > last) break;
    }
    return planes;
  } finally {
    for (const close of closers.reverse()) await close();
  }
}
