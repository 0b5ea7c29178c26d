/**
 * Which people model the Studio runs for service-human on this device, decided by timing it:
 * Robust Video Matting (real alpha for hair, stable edges) where a run of it at the size it
 * will see takes at most `budgetMs`, the MediaPipe selfie model (a few ms a frame anywhere)
 * elsewhere. The page shows the reason.
 */
import {
  PEOPLE_TIERS,
  withManifest,
  type InferenceRuntime,
  type PeopleModel,
  type TensorData,
} from '../../engine';
import { modelInputSize } from '../../engine/models/io';

/**
 * A model run within this leaves room for the refinement and still keeps up with half real time at
 * 30 fps (66 ms a frame).
 */
export const RVM_BUDGET_MS = 45;

export interface PeopleChoice {
  people: PeopleModel;
  reason: string;
}

export const PEOPLE_TITLES: Record<PeopleModel, string> = {
  rvm: 'Robust Video Matting',
  selfie: 'MediaPipe selfie',
};

/**
 * Median time of RVM runs (after a warm-up) at the input size the frame will get, state carried.
 */
async function timeRvm(
  runtime: InferenceRuntime,
  frame: { width: number; height: number },
): Promise<number> {
  const { tier, manifest } = withManifest(PEOPLE_TIERS.rvm);
  const session = await runtime.load(manifest);
  try {
    const [w, h] = modelInputSize(manifest, tier.inputSide, frame, tier.keepAspect);
    const state = manifest.recurrent?.state ?? [];
    let carried: Record<string, TensorData> = Object.fromEntries(
      state.map((s) => [s.input, { data: new Float32Array(1), dims: [1, 1, 1, 1] }]),
    );
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const src = { data: new Float32Array(w * h * 3).fill(0.5), dims: [1, h, w, 3] };
      const t0 = performance.now();
      const out = await session.run({ [manifest.input.name]: src, ...carried }, [
        manifest.output.name,
        ...state.map((s) => s.output),
      ]);
      times.push(performance.now() - t0);
      carried = Object.fromEntries(state.map((s) => [s.input, out[s.output]!]));
    }
    return times.slice(1).sort((a, b) => a - b)[1]!;
  } finally {
    await session.release();
  }
}

export async function choosePeopleModel(
  runtime: InferenceRuntime,
  frame: { width: number; height: number },
  forced: PeopleModel | null,
): Promise<PeopleChoice> {
  if (forced) return { people: forced, reason: `${PEOPLE_TITLES[forced]} was requested.` };
  const ms = await timeRvm(runtime, frame);
  const took = `${PEOPLE_TITLES.rvm} took ${Math.round(ms)} ms a frame on this device`;
  return ms <= RVM_BUDGET_MS
    ? {
        people: 'rvm',
        reason:
          `${took}, fast enough to keep up, so it runs: real alpha for ` + 'hair and steady edges.',
      }
    : {
        people: 'selfie',
        reason:
          `${took} (more than ${RVM_BUDGET_MS} ms), so the faster ` +
          `${PEOPLE_TITLES.selfie} model runs instead.`,
      };
}
