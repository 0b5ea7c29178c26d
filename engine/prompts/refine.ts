import type { TierName } from '../tiers';
import type { TierConfig } from '../tiers';
import { applyToFrame, guidedCoefficients } from '../matte/guided-filter';
import { fitLongSide, resizeMap, type GrayFrame } from '../matte/image';

/**
 * A refinement's engine side: the concept search (concept-model.ts) runs as the model of a
 * refinement tier, so the video matter carries it along optical flow between keyframes and
 * fuses neighbouring keys; its alpha is then fused with the job's active mask and, on request,
 * the edges are cleaned with the guided filter at a chosen processing size.
 */

export type RefineOp = 'add' | 'subtract';

/**
 * Engine configurations per model tier of the models that allow text prompts
 * (engine/api-models.ts `textPrompts`). The concept search runs at SAM's 1024 on keyframes;
 * everything the tiers' matter does between them applies unchanged. Main-subject filtering is
 * off: a prompt may name several things.
 */
const BASE: Omit<TierConfig, 'keyframes' | 'workSide'> = {
  model: 'concepts',
  inputSide: 1024,
  keepAspect: true,
  guided: { radius: 2, eps: 4e-3, gain: 2 },
  mainSubjectMinFraction: null,
  colourModel: false,
  subject: null,
};

export const REFINE_TIERS: Partial<Record<TierName, TierConfig>> = {
  original: {
    ...BASE,
    workSide: 512,
    keyframes: {
      interval: 8,
      fuseRadius: 1,
      bisectBelow: 0.6,
      bisectUnexplainedAbove: 0,
      unexplainedScale: 0,
      flowSide: 192,
      cutThreshold: 0.15,
    },
  },
  pro: {
    ...BASE,
    workSide: 768,
    keyframes: {
      interval: 3,
      fuseRadius: 1,
      bisectBelow: 0.7,
      bisectUnexplainedAbove: 0,
      unexplainedScale: 0,
      flowSide: 256,
      cutThreshold: 0.15,
    },
  },
};

/**
 * For `subtract`: the regions of the mask (4-connected, alpha ≥ 128) that the concept covers
 * for at least `share` of their pixels are taken out whole, not only the concept's pixels. A
 * detector's box often misses a thin part of an object (a swan's neck above the body it
 * boxed), while the mask being refined has the object in one piece; a region the concept
 * covers only a little of (a dog in the arms of a person) keeps everything but the concept.
 * Writes into `concept`.
 */
export function takeWholeRegions(
  mask: Uint8Array,
  concept: Uint8Array,
  width: number,
  share: number,
): void {
  const n = mask.length;
  const label = new Int32Array(n).fill(-1);
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  for (let i = 0; i < n; i++) {
    if (mask[i]! < 128) continue;
    const up = i >= width ? label[i - width]! : -1;
    const left = i % width ? label[i - 1]! : -1;
    if (up < 0 && left < 0) {
      label[i] = parent.length;
      parent.push(parent.length);
    } else if (up >= 0 && left >= 0) {
      const a = find(up);
      const b = find(left);
      parent[Math.max(a, b)] = Math.min(a, b);
      label[i] = Math.min(a, b);
    } else label[i] = up >= 0 ? up : left;
  }
  const size = new Float64Array(parent.length);
  const covered = new Float64Array(parent.length);
  for (let i = 0; i < n; i++) {
    if (label[i]! < 0) continue;
    const r = (label[i] = find(label[i]!));
    size[r] = size[r]! + 1;
    if (concept[i]! >= 128) covered[r] = covered[r]! + 1;
  }
  for (let i = 0; i < n; i++) {
    const r = label[i]!;
    if (r >= 0 && covered[r]! >= share * size[r]! && mask[i]! > concept[i]!) concept[i] = mask[i]!;
  }
}

/**
 * Fuses a concept's alpha into the active mask, in place: add = union (max), subtract = mask × (1 −
 * concept).
 */
export function fuseInto(mask: Uint8Array, concept: Uint8Array, op: RefineOp): void {
  if (op === 'add') {
    for (let i = 0; i < mask.length; i++) if (concept[i]! > mask[i]!) mask[i] = concept[i]!;
  } else {
    for (let i = 0; i < mask.length; i++)
      mask[i] = Math.round((mask[i]! * (255 - concept[i]!)) / 255);
  }
}

/**
 * Soft-alpha edge cleanup: the guided filter's coefficients are solved on the mask and the
 * frame's luma at `size` on the long side (the request's processing cap), then applied at full
 * resolution, so the mask's edges follow the picture's. Returns a new alpha.
 */
export function cleanEdges(mask: Uint8Array, luma: GrayFrame, size: number): Uint8Array {
  const { width: W, height: H } = luma;
  const [w, h] = fitLongSide(W, H, size);
  const p = resizeMap({ data: Float32Array.from(mask, (v) => v / 255), width: W, height: H }, w, h);
  const guide = resizeMap(
    { data: Float32Array.from(luma.data, (v) => v / 255), width: W, height: H },
    w,
    h,
  );
  const radius = Math.max(1, Math.round((2 * Math.max(w, h)) / 512));
  const out = new Uint8Array(W * H);
  applyToFrame(guidedCoefficients(p, guide, radius, 1e-3), p, luma, null, out);
  return out;
}
