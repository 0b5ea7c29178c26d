/**
 * The Studio's encode step, behind one small seam: frames with their alpha go in, one file comes
 * out. VP9 with alpha in WebM (mediabunny writes the alpha as VP9's side stream; WebCodecs
 * alone refuses alpha: 'keep'), or an H.264 MP4 of the subject on a colour or on its own
 * blurred background, composited on a canvas.
 */
import { BufferTarget, Mp4OutputFormat, Output, QUALITY_HIGH, VideoSample, VideoSampleSource, WebMOutputFormat } from 'mediabunny';
import { BT709_LIMITED, rgbaToI420 } from './i420';

export interface FrameEncoder {
  /** The output's MIME type and file extension. */
  readonly type: string;
  readonly extension: string;
  /**
   * Queues one frame (RGBA, alpha filled in; the buffer is the encoder's from now on). Resolves
   * once the encoder has room for more, so a caller that awaits it is held back only when the
   * encoder falls behind.
   */
  add(rgba: Uint8ClampedArray, timestampSeconds: number, durationSeconds: number): Promise<void>;
  /** Waits for every queued frame and returns the file. */
  finish(): Promise<Blob>;
}

/** VP9 with alpha in WebM at the given size and frame rate. */
export async function webmVp9AlphaEncoder(width: number, height: number, frameRate: number | undefined): Promise<FrameEncoder> {
  const target = new BufferTarget();
  const output = new Output({ format: new WebMOutputFormat(), target });
  const source = new VideoSampleSource({ codec: 'vp9', quality: QUALITY_HIGH, alpha: 'keep', keyFrameInterval: 2 });
  output.addVideoTrack(source, { frameRate });
  await output.start();
  return {
    type: 'video/webm',
    extension: 'webm',
    async add(rgba, timestamp, duration) {
      const sample = new VideoSample(rgba, { format: 'RGBA', codedWidth: width, codedHeight: height, timestamp, duration });
      try {
        await source.add(sample);
      } finally {
        sample.close();
      }
    },
    async finish() {
      source.close();
      await output.finalize();
      return new Blob(target.buffer ? [target.buffer] : [], { type: 'video/webm' });
    },
  };
}

/** What an opaque Studio result stands on. */
export type StudioBackground = { kind: 'color'; color: string } | { kind: 'blur' };

/**
 * Draws a matted frame (RGBA, alpha filled in) over `background` on one reused canvas: a colour, or
 * the frame itself blurred (the matted frame keeps its colours under alpha 0).
 */
export function backgroundCompositor(width: number, height: number, background: StudioBackground): (rgba: Uint8ClampedArray) => OffscreenCanvas {
  const cut = new OffscreenCanvas(width, height).getContext('2d')!;
  const canvas = new OffscreenCanvas(width, height);
  // Read back once per frame by the MP4 encoder (see rgbaToI420).
  const out = canvas.getContext('2d', { willReadFrequently: true })!;
  // About 2 % of the frame's diagonal, as the server's default blur.
  const blurPx = Math.max(4, Math.round(Math.hypot(width, height) * 0.02));
  // A blur reads past the frame's edges, where a canvas is transparent: blurring the frame inside a
  // margin filled with the frame stretched keeps the edges from fading to black.
  const margin = 3 * blurPx;
  const plain = background.kind === 'blur' ? new OffscreenCanvas(width, height).getContext('2d')! : null;
  const padded = background.kind === 'blur' ? new OffscreenCanvas(width + 2 * margin, height + 2 * margin).getContext('2d')! : null;
  return (rgba) => {
    cut.putImageData(new ImageData(rgba as Uint8ClampedArray<ArrayBuffer>, width, height), 0, 0);
    if (background.kind === 'color') {
      out.fillStyle = background.color;
      out.fillRect(0, 0, width, height);
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
 * H.264 in MP4 (what every editor and phone opens), each frame composited over `background` and
 * handed over as BT.709 limited-range I420 so the file's colours are the same in every browser.
 */
export async function mp4OnBackgroundEncoder(
  width: number,
  height: number,
  frameRate: number | undefined,
  background: StudioBackground,
): Promise<FrameEncoder> {
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const source = new VideoSampleSource({ codec: 'avc', quality: QUALITY_HIGH, keyFrameInterval: 2 });
  output.addVideoTrack(source, { frameRate });
  await output.start();
  const compose = backgroundCompositor(width, height, background);
  return {
    type: 'video/mp4',
    extension: 'mp4',
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
      try {
        await source.add(sample);
      } finally {
        sample.close();
      }
    },
    async finish() {
      source.close();
      await output.finalize();
      return new Blob(target.buffer ? [target.buffer] : [], { type: 'video/mp4' });
    },
  };
}
