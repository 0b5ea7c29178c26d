/**
 * The Studio's encode step, behind one small seam: frames with their alpha go in, one file comes
 * out, with the source's sound where the container carries it (studio-audio.ts). The cut-out is
 * VP9 with alpha in WebM (mediabunny writes the alpha as VP9's side stream; WebCodecs alone
 * refuses alpha: 'keep'); an opaque result is H.264 in MP4 or VP9 in WebM of the subject on a
 * colour, on an image or on its own blurred background, composited on a canvas.
 */
import {
  BufferTarget,
  type Input,
  Mp4OutputFormat,
  Output,
  type OutputFormat,
  QUALITY_HIGH,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
} from 'mediabunny';
import { BT709_LIMITED, rgbaToI420 } from './i420';
import { addSourceAudio, type ResultAudioCodec, sourceAudioTrack } from './studio-audio';

export interface FrameEncoder {
  /** The output's MIME type and file extension. */
  readonly type: string;
  readonly extension: string;
  /** Whether the file carries the source's sound. */
  readonly hasAudio: boolean;
  /**
   * Queues one frame (RGBA, alpha filled in; the buffer is the encoder's from now on). Resolves
   * once the encoder has room for more, so a caller that awaits it is held back only when the
   * encoder falls behind.
   */
  add(rgba: Uint8ClampedArray, timestampSeconds: number, durationSeconds: number): Promise<void>;
  /** Waits for every queued frame and the sound, and returns the file. */
  finish(): Promise<Blob>;
}

/** What every Studio encoder is made for. */
export interface EncoderSetup {
  width: number;
  height: number;
  frameRate: number | undefined;
  /** The source, whose sound is copied (null: no sound, e.g. a first-frame preview). */
  input: Input | null;
  signal: AbortSignal;
}

/**
 * An Output with its video track and, when the source has sound, its audio track; the sound runs
 * from start.
 */
async function startOutput(
  format: OutputFormat,
  video: VideoSampleSource,
  setup: EncoderSetup,
  audioCodec: ResultAudioCodec,
) {
  const target = new BufferTarget();
  const output = new Output({ format, target });
  output.addVideoTrack(video, { frameRate: setup.frameRate });
  const track = setup.input ? await sourceAudioTrack(setup.input) : null;
  const audio = track ? await addSourceAudio(output, track, audioCodec, setup.signal) : null;
  await output.start();
  const sound = audio?.run() ?? Promise.resolve();
  sound.catch(() => undefined); // awaited in finish(); not reported unhandled meanwhile
  return {
    hasAudio: Boolean(audio),
    async finish(type: string): Promise<Blob> {
      video.close();
      await sound;
      await output.finalize();
      return new Blob(target.buffer ? [target.buffer] : [], { type });
    },
  };
}

/** Hands one frame to the encoder, then frees the sample's frame memory whatever happened. */
async function addAndClose(source: VideoSampleSource, sample: VideoSample): Promise<void> {
  try {
    await source.add(sample);
  } finally {
    sample.close();
  }
}

/** The cut-out: VP9 with alpha in WebM, with the source's sound as Opus. */
export async function cutoutEncoder(setup: EncoderSetup): Promise<FrameEncoder> {
  const { width, height } = setup;
  const source = new VideoSampleSource({
    codec: 'vp9',
    quality: QUALITY_HIGH,
    alpha: 'keep',
    keyFrameInterval: 2,
  });
  const out = await startOutput(new WebMOutputFormat(), source, setup, 'opus');
  return {
    type: 'video/webm',
    extension: 'webm',
    hasAudio: out.hasAudio,
    async add(rgba, timestamp, duration) {
      const sample = new VideoSample(rgba, {
        format: 'RGBA',
        codedWidth: width,
        codedHeight: height,
        timestamp,
        duration,
      });
      await addAndClose(source, sample);
    },
    finish: () => out.finish('video/webm'),
  };
}

/**
 * What an opaque Studio result stands on: a colour, a picture the user chose, or its own blurred
 * frame.
 */
export type StudioBackground =
  { kind: 'color'; color: string } | { kind: 'image'; image: ImageBitmap } | { kind: 'blur' };

/**
 * Draws a matted frame (RGBA, alpha filled in) over `background` on one reused canvas: a colour,
 * a picture covering the frame (scaled to fill it, centred, cropped), or the frame itself
 * blurred (the matted frame keeps its colours under alpha 0).
 */
export function backgroundCompositor(
  width: number,
  height: number,
  background: StudioBackground,
): (rgba: Uint8ClampedArray) => OffscreenCanvas {
  const cut = new OffscreenCanvas(width, height).getContext('2d')!;
  const canvas = new OffscreenCanvas(width, height);
  // Read back once per frame by the MP4 encoder (see rgbaToI420).
  const out = canvas.getContext('2d', { willReadFrequently: true })!;
  // About 2 % of the frame's diagonal, as the server's default blur.
  const blurPx = Math.max(4, Math.round(Math.hypot(width, height) * 0.02));
  // A blur reads past the frame's edges, where a canvas is transparent: blurring the frame inside a
  // margin filled with the frame stretched keeps the edges from fading to black.
  const margin = 3 * blurPx;
  const plain =
    background.kind === 'blur' ? new OffscreenCanvas(width, height).getContext('2d')! : null;
  const padded =
    background.kind === 'blur'
      ? new OffscreenCanvas(width + 2 * margin, height + 2 * margin).getContext('2d')!
      : null;
  return (rgba) => {
    cut.putImageData(new ImageData(rgba as Uint8ClampedArray<ArrayBuffer>, width, height), 0, 0);
    if (background.kind === 'color') {
      out.fillStyle = background.color;
      out.fillRect(0, 0, width, height);
    } else if (background.kind === 'image') {
      const { image } = background;
      const scale = Math.max(width / image.width, height / image.height);
      const [w, h] = [image.width * scale, image.height * scale];
      out.drawImage(image, (width - w) / 2, (height - h) / 2, w, h);
    } else {
      const opaque = rgba.slice();
      for (let i = 3; i < opaque.length; i += 4) opaque[i] = 255;
      plain!.putImageData(new ImageData(opaque, width, height), 0, 0);
      padded!.drawImage(plain!.canvas, 0, 0, width + 2 * margin, height + 2 * margin);
      padded!.drawImage(plain!.canvas, margin, margin);
      out.filter = `blur(${blurPx}px)`;
      out.drawImage(padded!.canvas, -margin, -margin);
      out.filter = 'none';
    }
    out.drawImage(cut.canvas, 0, 0);
    return canvas;
  };
}

/**
 * An opaque result, each frame composited over `background` and handed over as BT.709
 * limited-range I420 so the file's colours are the same in every browser: H.264 in MP4 (what
 * every editor and phone opens) with AAC, or VP9 in WebM with Opus.
 */
export async function onBackgroundEncoder(
  setup: EncoderSetup & { container: 'mp4' | 'webm'; background: StudioBackground },
): Promise<FrameEncoder> {
  const { width, height } = setup;
  const mp4 = setup.container === 'mp4';
  const source = new VideoSampleSource({
    codec: mp4 ? 'avc' : 'vp9',
    quality: QUALITY_HIGH,
    keyFrameInterval: 2,
  });
  const out = await startOutput(
    mp4 ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat(),
    source,
    setup,
    mp4 ? 'aac' : 'opus',
  );
  const compose = backgroundCompositor(width, height, setup.background);
  const type = mp4 ? 'video/mp4' : 'video/webm';
  return {
    type,
    extension: setup.container,
    hasAudio: out.hasAudio,
    async add(rgba, timestamp, duration) {
      const composed = compose(rgba).getContext('2d')!.getImageData(0, 0, width, height).data;
      const sample = new VideoSample(rgbaToI420(composed, width, height), {
        format: 'I420',
        codedWidth: width,
        codedHeight: height,
        colorSpace: BT709_LIMITED,
        timestamp,
        duration,
      });
      await addAndClose(source, sample);
    },
    finish: () => out.finish(type),
  };
}
