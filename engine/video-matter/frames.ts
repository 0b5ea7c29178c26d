import { buildColourModel, quantiseColours, type ColourModel } from '../matte/colour-model';
import { denseFlow, type FlowField } from '../matte/flow';
import type { KeyMatte } from '../matte/fusion';
import {
  fitLongSide,
  grayOf,
  lumaOf,
  resampleRgb,
  resizeMap,
  type FloatMap,
  type GrayFrame,
  type RgbaFrame,
} from '../matte/image';
import type { TierConfig } from '../tiers';

/** The frames a video matter holds and the keys it has: what its parts pass each other. */

type RgbPlanes = Float32Array[];

/** A frame the model ran on, once its output has arrived. */
export interface Key extends KeyMatte {
  shot: number;
  /** The key's matte fused with its neighbours, once computed. */
  fused: FloatMap | null;
  /** Flows from this key to other keys (by index): the bisect check and fusion share them. */
  flows: Map<number, FlowField>;
  /** Its local colour statistics, when the tier checks frames between keys against them. */
  colours: ColourModel | null;
}

/** A pushed frame waiting for the keys its matte depends on. */
export interface Slot {
  index: number;
  shot: number;
  /**
   * The frame's colour, only while it may still become a key (the model input is built from
   * it): held frames are most of the matter's memory, and the lumas are all the rest needs.
   */
  pixels: {
    frame: RgbaFrame;
    /** R, G, B at the working resolution (a model smaller than it is fed from these). */
    work: RgbPlanes;
  } | null;
  /** Full-resolution luma: the guide the final alpha follows. */
  luma: GrayFrame;
  /** Luma at the flow resolution. */
  small: FloatMap;
  /** Flows from this frame to keys (by index), kept from the bisection check for the finish. */
  flows: Map<number, FlowField>;
  workLuma: FloatMap;
  /** Quantised colours at the working resolution, when the tier uses colour models. */
  colours: Uint16Array | null;
}

/** The working resolution of a tier for a frame size (long side = tier.workSide, never larger). */
export function workSize(tier: TierConfig, width: number, height: number): [number, number] {
  return fitLongSide(width, height, tier.workSide);
}

/**
 * A pushed frame's colour at the working resolution and its lumas. `scaled` is the frame
 * already at the working size, when the decoder made it. The flow resolution's luma is its own
 * only when `flows` (mattes travel between frames, or the subject stage reads motion);
 * otherwise the cut check uses the working one.
 */
export function frameLumas(
  tier: TierConfig,
  frame: RgbaFrame,
  scaled: RgbaFrame | undefined,
  flows: boolean,
) {
  const [ww, wh] = workSize(tier, frame.width, frame.height);
  const work = resampleRgb(
    scaled && scaled.width === ww && scaled.height === wh ? scaled : frame,
    ww,
    wh,
  );
  const workLuma = lumaOf(work, ww, wh);
  const small = flows
    ? resizeMap(workLuma, ...fitLongSide(frame.width, frame.height, tier.keyframes.flowSide))
    : workLuma;
  return { work, workLuma, small, luma: grayOf(frame) };
}

/** The lumas (and the colour at the working resolution) of a pushed frame. */
export type FrameLumas = ReturnType<typeof frameLumas>;

/** A pushed frame as the matter holds it; `withColours` when the tier uses colour models. */
export function heldFrame(
  index: number,
  shot: number,
  frame: RgbaFrame,
  f: FrameLumas,
  withColours: boolean,
): Slot {
  const colours = withColours ? quantiseColours(f.work) : null;
  const { work, workLuma, small, luma } = f;
  return { index, shot, pixels: { frame, work }, luma, small, flows: new Map(), workLuma, colours };
}

/** A key from its frame and the model's probability map at the working resolution. */
export function keyOf(slot: Slot, prob: FloatMap): Key {
  const colours = slot.colours ? buildColourModel(slot.colours, prob) : null;
  return {
    index: slot.index,
    shot: slot.shot,
    prob,
    small: slot.small,
    fused: null,
    flows: new Map(),
    colours,
  };
}

/** The flow from a frame (held or a key) to a key, computed once and kept on the frame. */
export function flowTo(
  from: { small: FloatMap; flows: Map<number, FlowField> },
  to: KeyMatte,
): FlowField {
  let f = from.flows.get(to.index);
  if (!f) {
    f = denseFlow(from.small, to.small);
    from.flows.set(to.index, f);
  }
  return f;
}
