/**
 * The source's sound in a studio result: Opus in WebM, AAC in MP4. Packets are copied as they
 * are when the source already has that codec (an MP4's AAC, most of the time); otherwise the
 * sound is decoded and encoded again, with WebCodecs or, for AAC where the browser has no
 * encoder (Chromium on Linux), mediabunny's FFmpeg-based AAC encoder.
 */
import {
  AudioSampleSink,
  AudioSampleSource,
  canEncodeAudio,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  type Input,
  type InputAudioTrack,
  type Output,
  QUALITY_HIGH,
} from 'mediabunny';

export type ResultAudioCodec = 'opus' | 'aac';

/** The sound of one output: `run` it (after `output.start()`) beside the video frames. */
export interface AudioFeed {
  run: () => Promise<void>;
}

let aacRegistered: Promise<void> | null = null;

async function ensureAacEncoder(): Promise<void> {
  aacRegistered ??= (async () => {
    if (await canEncodeAudio('aac')) return;
    const { registerAacEncoder } = await import('@mediabunny/aac-encoder');
    registerAacEncoder();
  })();
  return aacRegistered;
}

/** The input's first audio track, when this browser can read it. */
export async function sourceAudioTrack(input: Input): Promise<InputAudioTrack | null> {
  const track = await input.getPrimaryAudioTrack().catch(() => null);
  if (!track) return null;
  return (await track.canDecode()) ? track : null;
}

/**
 * Adds the track's sound to `output` (before `output.start()`); the returned feed writes it and
 * closes the track when the sound ends. `signal` stops it early.
 */
export async function addSourceAudio(
  output: Output,
  track: InputAudioTrack,
  codec: ResultAudioCodec,
  signal: AbortSignal,
): Promise<AudioFeed> {
  if ((await track.getCodec()) === codec) {
    const source = new EncodedAudioPacketSource(codec);
    output.addAudioTrack(source);
    const decoderConfig = (await track.getDecoderConfig()) ?? undefined;
    const run = async () => {
      let first = true;
      for await (const packet of new EncodedPacketSink(track).packets()) {
        if (signal.aborted) break;
        await source.add(packet, first ? { decoderConfig } : undefined);
        first = false;
      }
      source.close();
    };
    return { run };
  }
  if (codec === 'aac') await ensureAacEncoder();
  const source = new AudioSampleSource({ codec, quality: QUALITY_HIGH });
  output.addAudioTrack(source);
  const run = async () => {
    for await (const sample of new AudioSampleSink(track).samples()) {
      try {
        if (signal.aborted) break;
        await source.add(sample);
      } finally {
        sample.close();
      }
    }
    source.close();
  };
  return { run };
}
