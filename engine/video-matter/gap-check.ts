import { warpBack } from '../matte/flow';
import { unexplainedSubject } from '../matte/fusion';
import type { FloatMap } from '../matte/image';
import type { KeyframeOptions } from '../tiers';
import { flowTo, type Key, type Slot } from './frames';

/** Cells along the long side in which the gap check looks for subject the keys do not explain. */
const CHECK_REGIONS = 4;

/**
 * Whether the gap between two keys fails its check, so its midpoint becomes a key too: they
 * disagree (the earlier one, carried onto the later along the flow, overlaps it less than
 * `bisectBelow`: fast or non-rigid motion, or the model changing its mind), or some held frame
 * between them is explained by neither (`bisectUnexplainedAbove`: it left and came back, or
 * turned away).
 */
export function gapFails(
  a: Key,
  b: Key,
  held: readonly Slot[],
  k: Pick<KeyframeOptions, 'bisectBelow' | 'bisectUnexplainedAbove'>,
): boolean {
  return (
    (k.bisectBelow > 0 &&
      confidentOverlap(b.prob, warpBack(a.prob, flowTo(b, a))) < k.bisectBelow) ||
    (k.bisectUnexplainedAbove > 0 && worstUnexplained(a, b, held) > k.bisectUnexplainedAbove)
  );
}

/**
 * The largest share of carried subject that neither key explains in one region of a frame,
 * over the frames between them. Their flows to the keys are kept for their finish.
 */
function worstUnexplained(a: Key, b: Key, held: readonly Slot[]): number {
  let worst = 0;
  for (const slot of held) {
    if (slot.index <= a.index || slot.index >= b.index) continue;
    worst = Math.max(
      worst,
      Math.min(
        unexplainedSubject(slot.small, a, flowTo(slot, a), CHECK_REGIONS),
        unexplainedSubject(slot.small, b, flowTo(slot, b), CHECK_REGIONS),
      ),
    );
  }
  return worst;
}

/**
 * Σ min / Σ max of two probability maps over the pixels both are sure of (p ≤ 0.25 or ≥ 0.75):
 * 1 when they agree, 0 when disjoint. Regions the model is unsure of are left to fusion; more
 * keys there would only add more unsure votes.
 */
function confidentOverlap(a: FloatMap, b: FloatMap): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i]!;
    const y = b.data[i]!;
    if ((x > 0.25 && x < 0.75) || (y > 0.25 && y < 0.75)) continue;
    inter += x < y ? x : y;
    union += x < y ? y : x;
  }
  return union > 0 ? inter / union : 1;
}
