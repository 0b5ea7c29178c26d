import { colourPosterior, combineOdds } from '../matte/colour-model';
import { stillFlow, type FlowField } from '../matte/flow';
import { fuseKeyMattes, type FusionWeights, type KeyMatte } from '../matte/fusion';
import { applyToFrame, guidedCoefficients } from '../matte/guided-filter';
import { resizeMap, type FloatMap } from '../matte/image';
import { keepMainSubject } from '../subject/main-subject';
import type { TierConfig } from '../tiers';
import type { KeySpacing } from './key-schedule';
import { flowTo, type Key, type Slot } from './frames';

/** What finishing a frame reads besides the frame and the keys. */
export interface Finishing {
  tier: TierConfig;
  /** null: soft alpha; 0..1: hard alpha, subject where alpha ≥ threshold. */
  threshold: number | null;
  weights: FusionWeights;
  interval: number;
  /** A key's matte fuses the raw keys of its shot within this many frames. */
  keyReach: number;
}

/** What finishing reads for a tier at a key spacing with a normalised threshold. */
export function finishingFor(tier: TierConfig, s: KeySpacing, threshold: number | null): Finishing {
  const weights = { interval: s.interval, unexplainedScale: tier.keyframes.unexplainedScale };
  return { tier, threshold, weights, interval: s.interval, keyReach: s.keyReach };
}

/** A held frame's finished alpha (one byte per pixel, 255 = subject) from the keys around it. */
export function finishFrame(slot: Slot, keys: readonly Key[], o: Finishing): Uint8Array {
  return refineToAlpha(frameMatte(slot, keys, o), slot, o.tier, o.threshold);
}

/**
 * The frame's matte at the working resolution: its own key's, or the keys around it carried along
 * the flow.
 */
function frameMatte(slot: Slot, keys: readonly Key[], o: Finishing): FloatMap {
  const own = keys.find((k) => k.index === slot.index);
  const around = nearestEachSide(
    keys.filter((k) => k.shot === slot.shot && k !== own),
    slot.index,
  );
  let p: FloatMap;
  let flows: Map<number, FlowField>;
  if (own) {
    p = fusedKey(own, keys, o);
    flows = new Map();
  } else {
    flows = new Map(around.map((k) => [k.index, flowTo(slot, k)]));
    const fused = around.map((k) => ({
      index: k.index,
      small: k.small,
      prob: fusedKey(k, keys, o),
    }));
    p = fuseKeyMattes(slot.small, slot.index, fused, o.weights, (k) => flows.get(k.index)!);
  }
  if (slot.colours) {
    // A key gets the check its neighbours get, from its own statistics and the keys around
    // it: otherwise it alone keeps what its model was unsure of and they drop, and the matte
    // pops on every key.
    if (own) {
      flows.set(own.index, stillFlow(own.small));
      for (const k of around) flows.set(k.index, flowTo(own, k));
    }
    p = checkColours(
      p,
      slot.colours,
      slot.index,
      own ? [own, ...around] : around,
      flows,
      o.interval,
    );
  }
  return p;
}

/** A key's matte after fusion with the raw keys of its shot within keyReach (cached). */
function fusedKey(key: Key, keys: readonly Key[], o: Finishing): FloatMap {
  if (!key.fused) {
    const near = keys.filter(
      (k) => k.shot === key.shot && Math.abs(k.index - key.index) <= o.keyReach,
    );
    key.fused =
      near.length > 1
        ? fuseKeyMattes(key.small, key.index, near, o.weights, (k) => flowTo(key, k))
        : key.prob;
  }
  return key.fused;
}

/**
 * Weighs a matte carried along the flow against what the frame's own colours say, by the local
 * colour statistics of the keys it came from (nearer keys count more).
 */
function checkColours(
  p: FloatMap,
  colours: Uint16Array,
  index: number,
  around: Key[],
  flows: Map<number, FlowField>,
  interval: number,
): FloatMap {
  const { width: W, height: H } = p;
  const votes = new Float32Array(W * H);
  let total = 0;
  for (const k of around) {
    if (!k.colours) continue;
    const w = Math.exp(-Math.abs(k.index - index) / interval);
    const q = colourPosterior(k.colours, colours, W, H, flows.get(k.index)!);
    for (let i = 0; i < q.length; i++) votes[i] = votes[i]! + w * q[i]!;
    total += w;
  }
  if (total === 0) return p;
  for (let i = 0; i < votes.length; i++) votes[i] = votes[i]! / total;
  return { data: combineOdds(p.data, votes), width: W, height: H };
}

/** The matte kept to its main subject and carried to full resolution along the frame's luma. */
function refineToAlpha(
  matte: FloatMap,
  slot: Slot,
  tier: TierConfig,
  threshold: number | null,
): Uint8Array {
  let p = matte;
  // The guided filter may solve its coefficients on a coarser grid than the working one (the
  // apply reads the full-resolution luma either way); main-subject runs on that grid too.
  const g = tier.guided;
  const sub = g?.subsample ?? 1;
  if (sub > 1)
    p = resizeMap(
      p,
      Math.max(1, Math.round(p.width / sub)),
      Math.max(1, Math.round(p.height / sub)),
    );
  if (tier.mainSubjectMinFraction !== null) p = keepMainSubject(p, tier.mainSubjectMinFraction);
  const guide = sub > 1 ? resizeMap(slot.workLuma, p.width, p.height) : slot.workLuma;
  const coef = g
    ? guidedCoefficients(p, guide, Math.max(1, Math.round(g.radius / sub)), g.eps, g.gain)
    : null;
  const alpha = new Uint8Array(slot.luma.data.length);
  applyToFrame(coef, p, slot.luma, threshold, alpha);
  return alpha;
}

/** The closest key at or before `index` and the closest after it. */
function nearestEachSide<K extends KeyMatte>(keys: readonly K[], index: number): K[] {
  let before: K | null = null;
  let after: K | null = null;
  for (const k of keys) {
    if (k.index <= index && (!before || k.index > before.index)) before = k;
    if (k.index > index && (!after || k.index < after.index)) after = k;
  }
  return [before, after].filter((k): k is K => k !== null);
}
