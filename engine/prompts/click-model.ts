import type { FloatMap } from '../matte/image';
import { compositeRuntime, rgbPlanes } from '../models/composite-runtime';
import type { ModelIo } from '../models/io';
import type { InferenceRuntime, TensorData } from '../runtime';
import {
  clickTracker,
  newTrackStats,
  type ClickPrompt,
  type TrackAnswer,
  type TrackOptions,
  type TrackState,
  type TrackStats,
} from './click-track';
import { CONCEPT_MODEL_IO } from './concept-model';
import { SAM_DECODER, SAM_ENCODER } from './models';
import { samProbability } from './sam';

/**
 * A clicked object followed through the video, packaged as a model as the concept search is
 * (concept-model.ts): the video matter runs it on its keyframes (the clicked frame is always
 * one), carries its answers between them along optical flow and fuses neighbouring keys.
 *
 * Keys up to the clicked frame were answered by a pre-pass that tracked the object backwards
 * from it (`trackBackward`, run by the caller, which must see the video in reverse); their
 * answers are read back here, with no model run. Every other key is followed (click-track.ts)
 * from the nearest key answered so far, so the keys after the clicked frame follow it forwards.
 */
export const CLICK_MODEL_IO: ModelIo = {
  ...CONCEPT_MODEL_IO,
  id: 'click',
  file: 'click',
  frameIndex: 'frame_index',
};

/** The pre-pass's answers, by frame index. */
export interface KnownAnswers {
  readonly indices: ReadonlySet<number>;
  load(index: number): Promise<TrackAnswer>;
}

/** States kept for following: a midpoint key needs the two keys around it, so a few suffice. */
const KEEP_STATES = 8;

/** `stats` may be the pre-pass's, so one record counts both passes. */
export function clickRuntime(
  runtime: InferenceRuntime,
  opts: TrackOptions & { click: ClickPrompt; known: KnownAnswers; stats?: TrackStats },
): { runtime: InferenceRuntime; stats: TrackStats } {
  const stats = opts.stats ?? newTrackStats();
  const states = new Map<number, TrackState>();
  const remember = (s: TrackState) => {
    states.delete(s.index);
    states.set(s.index, s);
    for (const k of states.keys()) if (states.size > KEEP_STATES) states.delete(k);
  };
  /** The nearest key answered so far; of two as near, the one towards the clicked frame. */
  async function nearest(index: number): Promise<TrackState> {
    const candidates = [...new Set([...states.keys(), ...opts.known.indices])];
    const c = opts.click.frame;
    candidates.sort(
      (a, b) => Math.abs(a - index) - Math.abs(b - index) || Math.abs(a - c) - Math.abs(b - c),
    );
    const best = candidates[0];
    if (best === undefined) throw new Error('A key was asked for before any key was answered');
    return states.get(best) ?? (await opts.known.load(best)).state;
  }

  const composite = compositeRuntime('click', runtime, CLICK_MODEL_IO.output.name, async () => {
    const [encoder, decoder] = await Promise.all([
      runtime.load(SAM_ENCODER),
      runtime.load(SAM_DECODER),
    ]);
    const tracker = clickTracker({ encoder, decoder }, opts, stats);
    async function answer(feeds: Record<string, TensorData>): Promise<FloatMap> {
      const index = feeds[CLICK_MODEL_IO.frameIndex!]?.data[0];
      if (index === undefined) throw new Error('The click model needs the frame index');
      const frame = { index, ...rgbPlanes(feeds[CLICK_MODEL_IO.input.name]!) };
      let a: TrackAnswer;
      if (opts.known.indices.has(index)) {
        stats.reused++;
        a = await opts.known.load(index);
      } else {
        a =
          index === opts.click.frame
            ? await tracker.click(frame, opts.click.points)
            : await tracker.follow(frame, await nearest(index));
      }
      remember(a.state);
      const { width, height } = frame;
      return a.logits
        ? samProbability(a.logits, width, height)
        : { data: new Float32Array(width * height), width, height };
    }
    return { answer, sessions: [encoder, decoder] };
  });
  return { runtime: composite, stats };
}
