import { keepMainSubject } from './matte/main-subject';
import { guidedCoefficients, applyToFrame } from './matte/guided-filter';
import { fitLongSide, lumaOf, resampleRgb, resizeMap, type FloatMap, type RgbaFrame } from './matte/image';
import { propagate } from './matte/motion';
import { KeyframeSampler } from './matte/sampler';
import { TemporalStabilizer } from './matte/temporal';
import type { ModelManifest } from './models/manifest';
import { decodeOutput, modelInputSize, toInputTensor } from './models/io';
import type { InferenceRuntime, InferenceSession } from './runtime';
import type { TierConfig } from './tiers';

export interface VideoMatterOptions {
  runtime: InferenceRuntime;
  manifest: ModelManifest;
  tier: TierConfig;
  /** null (default): soft alpha. A number in 0..1: hard alpha, subject where alpha ≥ threshold. */
  threshold?: number | null;
  /** Reuse the matte on frames that barely changed (default true). false: infer every frame. */
  smartSampling?: boolean;
}

export interface MatterStats {
  framesDone: number;
  inferences: number;
  /** Seconds spent per stage: "infer" (resize, normalise, run, decode) and "refine" (the rest). */
  stageSeconds: { infer: number; refine: number };
}

export interface VideoMatter {
  /** Frames must come in display order; the alpha has one byte per pixel (255 = subject). */
  process(frame: RgbaFrame): Promise<Uint8Array>;
  /** Forget temporal state (call between videos or after a seek). */
  reset(): void;
  readonly stats: MatterStats;
  release(): Promise<void>;
}

const now = () => performance.now() / 1000;

type RgbPlanes = Float32Array[];

/** R, G, B planes back to an RGBA buffer (small: working resolution only). */
function interleave(planes: RgbPlanes, w: number, h: number): Uint8ClampedArray {
  const [r, g, b] = planes as [Float32Array, Float32Array, Float32Array];
  const out = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    out[i * 4] = r[i]!;
    out[i * 4 + 1] = g[i]!;
    out[i * 4 + 2] = b[i]!;
    out[i * 4 + 3] = 255;
  }
  return out;
}

/** Normalises a user threshold: null/undefined → soft; 0..1 as is; 1..255 read as a byte. */
export function normalizeThreshold(t: number | null | undefined): number | null {
  if (t === null || t === undefined || Number.isNaN(t)) return null;
  const v = t > 1 ? t / 255 : t;
  return Math.min(1, Math.max(0, v));
}

export async function createVideoMatter(opts: VideoMatterOptions): Promise<VideoMatter> {
  const { manifest: m, tier } = opts;
  const session: InferenceSession = await opts.runtime.load(m);
  const threshold = normalizeThreshold(opts.threshold);
  const sampler = new KeyframeSampler(opts.smartSampling === false ? { maxInterval: 1, changeThreshold: 0 } : tier.sampling);
  const temporal = tier.temporal ? new TemporalStabilizer(tier.temporal) : null;
  const stats: MatterStats = { framesDone: 0, inferences: 0, stageSeconds: { infer: 0, refine: 0 } };
  let lastProb: FloatMap | null = null;
  let lastLuma: FloatMap | null = null;

  async function infer(frame: RgbaFrame, work: RgbPlanes, workW: number, workH: number): Promise<FloatMap> {
    const [mw, mh] = modelInputSize(m, tier.inputSide, frame, tier.keepAspect);
    // A model no larger than the working resolution is fed from it: one pass over the frame.
    const source = Math.max(mw, mh) <= Math.max(workW, workH) ? { data: interleave(work, workW, workH), width: workW, height: workH } : frame;
    const input = toInputTensor(resampleRgb(source, mw, mh), mw, mh, m);
    const out = await session.run({ [m.input.name]: input }, [m.output.name]);
    const t = out[m.output.name];
    if (!t) throw new Error(`Model ${m.id} returned no output "${m.output.name}"`);
    stats.inferences++;
    return resizeMap(decodeOutput(t, m), workW, workH);
  }

  return {
    stats,
    reset() {
      sampler.reset();
      temporal?.reset();
      lastProb = null;
      lastLuma = null;
    },
    async process(frame) {
      const t0 = now();
      const [ww, wh] = fitLongSide(frame.width, frame.height, tier.workSide);
      const work = resampleRgb(frame, ww, wh);
      const luma = lumaOf(work, ww, wh);
      const t1 = now();
      const due = sampler.needsInference(luma);
      if (due || !lastProb || !lastLuma || lastProb.width !== ww || lastProb.height !== wh) {
        lastProb = await infer(frame, work, ww, wh);
      } else {
        lastProb = propagate(lastProb, lastLuma, luma);
      }
      lastLuma = luma;
      const t2 = now();
      let p = lastProb;
      if (tier.mainSubjectMinFraction !== null) p = keepMainSubject(p, tier.mainSubjectMinFraction);
      if (temporal) p = temporal.apply(p, luma);
      const coef = tier.guided ? guidedCoefficients(p, luma, tier.guided.radius, tier.guided.eps) : null;
      const alpha = new Uint8Array(frame.width * frame.height);
      applyToFrame(coef, p, frame, threshold, alpha);
      const t3 = now();
      stats.framesDone++;
      stats.stageSeconds.infer += t2 - t1;
      stats.stageSeconds.refine += t1 - t0 + (t3 - t2);
      return alpha;
    },
    release: () => session.release(),
  };
}
