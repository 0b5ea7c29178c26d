/**
 * The Studio's encode step, behind one small seam: frames with their alpha go in, one file comes
 * out. Today: VP9 with alpha in WebM (mediabunny writes the alpha as VP9's side stream; WebCodecs
 * alone refuses alpha: 'keep'). Other outputs (stickers, a colour background) are other
 * implementations of `FrameEncoder`.
 */
import { BufferTarget, Output, QUALITY_HIGH, VideoSample, VideoSampleSource, WebMOutputFormat } from 'mediabunny';

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
  const source = new VideoSampleSource({ codec: 'vp9', bitrate: QUALITY_HIGH, alpha: 'keep', keyFrameInterval: 2 });
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
