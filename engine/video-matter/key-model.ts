import { resampleRgb, resizeMap, type FloatMap, type RgbaFrame } from '../matte/image';
import { initialState, modelInputSize, nextState, toInputTensor, type ModelIo } from '../models/io';
import type { InferenceSession, TensorData } from '../runtime';
import type { TierConfig } from '../tiers';
import type { Slot } from './frames';
import type { KeySpacing } from './key-schedule';

type Outputs = Record<string, TensorData>;

/** The model the keys run: its input built from a held frame, and what it carries between runs. */
export interface KeyModel {
  /** Starts the model on a frame; its pixels are read now. */
  run(slot: Slot): Promise<Outputs>;
  /** The probability output of a run. */
  output(out: Outputs): TensorData;
  /** Notes a pushed frame's luma for the frames after it (a subject stage's motion cue). */
  remember(slot: Slot): void;
  /** Forgets the recurrent state and the lumas (between videos or after a seek). */
  reset(): void;
}

export function keyModel(
  session: InferenceSession,
  m: ModelIo,
  tier: TierConfig,
  spacing: KeySpacing,
): KeyModel {
  const recurrent = m.recurrent ?? null;
  if (recurrent && (spacing.interval > 1 || spacing.bisecting))
    throw new Error(
      `Model ${m.id} is recurrent: its tier must run it on every frame (interval 1, no bisection)`,
    );
  /** A recurrent model's state after the last run started, and the shot it belongs to. */
  let carried: { shot: number; state: Promise<Outputs> } | null = null;
  /**
   * The last frames' lumas at the flow resolution, for a model told the frame's context (its motion
   * cue).
   */
  const motionGap = m.frameContext?.gap ?? 0;
  let recentLumas: { index: number; shot: number; small: FloatMap }[] = [];

  function run(slot: Slot): Promise<Outputs> {
    const { pixels, workLuma } = slot;
    if (!pixels) throw new Error(`frame ${slot.index} became a key after its pixels were released`);
    const { frame, work } = pixels;
    const [ww, wh] = [workLuma.width, workLuma.height];
    const [mw, mh] = modelInputSize(m, tier.inputSide, frame, tier.keepAspect);
    // A model no larger than the working resolution is fed from it: one pass over the frame.
    const planes =
      Math.max(mw, mh) <= Math.max(ww, wh)
        ? work.map((c) => resizeMap({ data: c, width: ww, height: wh }, mw, mh).data)
        : resampleRgb(frame, mw, mh);
    const feeds = { [m.input.name]: toInputTensor(planes, mw, mh, m) };
    if (m.frameIndex) feeds[m.frameIndex] = { data: Float32Array.of(slot.index), dims: [1] };
    if (m.frameContext) Object.assign(feeds, contextFeeds(m.frameContext, slot, frame));
    return recurrent
      ? runRecurrent(recurrent, slot.shot, feeds)
      : session.run(feeds, [m.output.name]);
  }

  /**
   * The frame's index, shot, size and lumas (now and `motionGap` frames back in its shot), for the
   * subject stage.
   */
  function contextFeeds(
    names: NonNullable<ModelIo['frameContext']>,
    slot: Slot,
    frame: RgbaFrame,
  ): Outputs {
    const asTensor = (f: FloatMap): TensorData => ({
      data: f.data.slice(),
      dims: [1, 1, f.height, f.width],
    });
    const before = recentLumas.find(
      (r) => r.shot === slot.shot && r.index < slot.index && r.index >= slot.index - motionGap,
    );
    return {
      [names.info]: {
        data: Float32Array.of(
          slot.index,
          slot.shot,
          frame.width,
          frame.height,
          before?.index ?? slot.index,
        ),
        dims: [5],
      },
      [names.luma]: asTensor(slot.small),
      ...(before ? { [names.previousLuma]: asTensor(before.small) } : {}),
    };
  }

  /**
   * Runs a recurrent model with the state the previous frame's run left, or zeros on a shot's
   * first frame (cuts and reset() start a new shot). Runs chain: each waits for the state
   * before it, while the engine goes on preparing and finishing other frames.
   */
  function runRecurrent(r: NonNullable<ModelIo['recurrent']>, shotOf: number, feeds: Outputs) {
    const before = carried?.shot === shotOf ? carried.state : Promise.resolve(initialState(r));
    const running = before.then((state) =>
      session.run({ ...feeds, ...state }, [m.output.name, ...r.state.map((s) => s.output)]),
    );
    const state = running.then((out) => nextState(m, r, out));
    state.catch(() => undefined); // the run's own promise reports a failure
    carried = { shot: shotOf, state };
    return running;
  }

  return {
    run,
    output(out) {
      const t = out[m.output.name];
      if (!t) throw new Error(`Model ${m.id} returned no output "${m.output.name}"`);
      return t;
    },
    remember(slot) {
      if (motionGap)
        recentLumas = [
          ...recentLumas.filter((r) => r.index >= slot.index - motionGap),
          { index: slot.index, shot: slot.shot, small: slot.small },
        ];
    },
    reset() {
      carried = null;
      recentLumas = [];
    },
  };
}
