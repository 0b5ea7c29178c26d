import path from 'node:path';
import type { MediaInfo } from '../../engine/media/types';
import { resampleRgb } from '../../engine/matte/image';
import { modelInputSize } from '../../engine/models/io';
import { CLICK_MODEL_IO, type KnownAnswers } from '../../engine/prompts/click-model';
import {
  answerLayout,
  clickTracker,
  packAnswer,
  trackBackward,
  unpackAnswer,
  type ClickPrompt,
  type TrackFrame,
  type TrackStats,
} from '../../engine/prompts/click-track';
import { SAM_DECODER, SAM_ENCODER } from '../../engine/prompts/models';
import type { InferenceRuntime } from '../../engine/runtime';
import type { TierConfig } from '../../engine/tiers';
import { MediaError } from '../media/ffmpeg';
import { readFrames, type DecodedFrame } from '../segment/frame-reader';
import { RecordSpool } from './record-spool';

export interface TrackedBeforeClick {
  /** The clicked frame (the last frame when the video turned out shorter than the click's time). */
  frame: number;
  known: KnownAnswers;
  decodeSeconds: number;
  /** Removes the answers from disk. */
  close(): void;
}

/**
 * The pre-pass of a click prompt: the keys up to the clicked frame (every `interval`-th frame
 * from the first, as the video matter picks them, and the clicked frame) are decoded at the
 * model's input size into a spool on disk, then tracked backwards from the clicked frame, and
 * their answers spooled for the forward pass. Memory stays flat whatever the video's length.
 */
export async function trackBeforeClick(opts: {
  input: string;
  info: MediaInfo;
  tier: TierConfig;
  click: ClickPrompt;
  runtime: InferenceRuntime;
  scratchDir: string;
  stats: TrackStats;
  signal?: AbortSignal;
}): Promise<TrackedBeforeClick> {
  const { info, tier, click } = opts;
  const [mw, mh] = modelInputSize(CLICK_MODEL_IO, tier.inputSide, info, tier.keepAspect);
  const interval = Math.max(1, tier.keyframes.interval);
  const n = mw * mh;
  const frames = new RecordSpool(path.join(opts.scratchDir, 'click-frames.raw'), 3 * n);
  const slots = new Map<number, number>();
  const t0 = performance.now();
  let frame = -1;
  try {
    // The newest frame off the grid: the clicked one if the video ends before the click's frame.
    let last: { index: number; frame: DecodedFrame } | null = null;
    const keep = (index: number, planes: Float32Array[]) => {
      const bytes = new Uint8Array(3 * n);
      for (let c = 0; c < 3; c++) for (let i = 0; i < n; i++) bytes[c * n + i] = planes[c]![i]!;
      slots.set(index, frames.append(bytes));
    };
    for await (const f of readFrames(info, opts.input, {
      signal: opts.signal,
      maxFrames: click.frame + 1,
    })) {
      frame++;
      if (frame % interval !== 0 && frame !== click.frame) {
        last = { index: frame, frame: f };
        continue;
      }
      keep(frame, resampleRgb(f, mw, mh));
      last = null;
    }
    if (frame < 0) throw new MediaError('The video has no decodable frames.');
    if (last) keep(last.index, resampleRgb(last.frame, mw, mh));
    const decodeSeconds = (performance.now() - t0) / 1000;

    const layout = answerLayout(mw, mh, tier.keyframes.flowSide);
    const answers = new RecordSpool(
      path.join(opts.scratchDir, 'click-answers.raw'),
      4 * layout.length,
    );
    const answerSlots = new Map<number, number>();
    try {
      const [encoder, decoder] = await Promise.all([
        opts.runtime.load(SAM_ENCODER),
        opts.runtime.load(SAM_DECODER),
      ]);
      const tracker = clickTracker(
        { encoder, decoder },
        { sourceWidth: info.width, sourceHeight: info.height, flowSide: tier.keyframes.flowSide },
        opts.stats,
      );
      const order = [...slots.keys()].sort((a, b) => b - a);
      function* reversed(): Generator<TrackFrame> {
        for (const index of order) {
          if (opts.signal?.aborted) throw new MediaError('The refinement was cancelled');
          const bytes = frames.read(slots.get(index)!);
          yield {
            index,
            planes: [0, 1, 2].map((c) => Float32Array.from(bytes.subarray(c * n, (c + 1) * n))),
            width: mw,
            height: mh,
          };
        }
      }
      await trackBackward(tracker, reversed(), click.points, (a) => {
        const packed = packAnswer(a, layout);
        answerSlots.set(a.state.index, answers.append(new Uint8Array(packed.buffer)));
      });
    } catch (e) {
      answers.close();
      throw e;
    }
    return {
      frame,
      decodeSeconds,
      known: {
        indices: new Set(answerSlots.keys()),
        load: (index) =>
          Promise.resolve(
            unpackAnswer(new Float32Array(answers.read(answerSlots.get(index)!).buffer), layout),
          ),
      },
      close: () => answers.close(),
    };
  } finally {
    frames.close();
  }
}
