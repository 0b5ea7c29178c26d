import { cropResize, resizeMap, type FloatMap } from '../matte/image';
import { compositeRuntime } from '../models/composite-runtime';
import { decodeOutput, initialState, nextState, toInputTensor, type ModelIo } from '../models/io';
import { boxIou, boxOf, decodeDetections, runDetector, type Box } from '../prompts/detector';
import { CENTERNET } from '../prompts/models';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';
import { chooseSubject, type Candidate } from './choose';
import { candidateCues, motionOf, readKey, subjectModelIo, type KeyInput } from './subject-model';

/**
 * The people stage: a person model trained on portraits (MediaPipe selfie, 256²) sees full-body
 * people in sports footage at a few dozen pixels and fails. Here the detector finds the people
 * every few frames, the subject rules (engine/subject/choose.ts) pick the one the video is about
 * (the moving dancer, not the still crowd), and the person model runs on a square crop around
 * them, so they fill its input. Between detections the crop follows the person model's own
 * answer. Where no person is found the model sees the whole frame, as it did before.
 */

export interface PeopleStage {
  kind: 'people';
  /** Frames between two detector runs (a shot's first frame always gets one). */
  detectEvery: number;
  motionGap: number;
  /** Margin around the subject's box, as a share of its longer side, on every side. */
  margin: number;
  /**
   * Side of the square the person model sees the crop at, where its input size is flexible (RVM); a
   * fixed-size model sees it at its own size.
   */
  cropSide: number;
}

/** Detections below this are not candidates. */
const MIN_DETECTION = 0.3;
const PERSON = 0;
/** The model's answer moves the crop only while it still overlaps the person this much. */
const FOLLOW_IOU = 0.3;
/**
 * A recurrent model keeps its state across a new detection's crop that overlaps the last one this
 * much; else it starts again.
 */
const KEEP_STATE_IOU = 0.5;

interface CropState {
  shot: number;
  /** Index of the frame the detector last ran on. */
  detectedAt: number;
  /** The crop, in the input planes' pixels; null: the whole frame. */
  crop: Box | null;
  /** The subject's box as last seen, for the next choice's persistence. */
  subject: Box | null;
}

export function peopleRuntime(
  runtime: InferenceRuntime,
  base: ModelIo,
  stage: PeopleStage,
): { runtime: InferenceRuntime; manifest: ModelIo } {
  const io = { ...subjectModelIo(base, stage.motionGap), id: `people(${base.id})` };
  const composite = compositeRuntime('people', runtime, io.output.name, async () => {
    const [segmenter, detector] = await Promise.all([runtime.load(base), runtime.load(CENTERNET)]);
    // Frames run in order: each crop follows the answer on the frame before.
    return {
      answer: peopleFramer(segmenter, detector, base, stage),
      sessions: [segmenter, detector],
    };
  });
  return { runtime: composite, manifest: io };
}

function peopleFramer(
  segmenter: InferenceSession,
  detector: InferenceSession,
  base: ModelIo,
  stage: PeopleStage,
) {
  let state: CropState = { shot: -1, detectedAt: -Infinity, crop: null, subject: null };
  const [sw, sh] =
    base.input.size === 'multiple-of-32' ? [stage.cropSide, stage.cropSide] : base.input.size;
  const recurrent = recurrentState(base);

  /**
   * The person model on a box of the planes (the whole picture when null), answered at the box's
   * size in the picture. `carry`: the run that makes the frame's matte, which carries a
   * recurrent model's state from the frame before; the detector's look at the whole picture
   * starts from none.
   */
  async function segment(k: KeyInput, box: Box | null, carry: boolean): Promise<FloatMap> {
    const b = box ?? ([0, 0, k.width, k.height] as const);
    const planes = k.planes.map(
      (p) => cropResize({ data: p, width: k.width, height: k.height }, b, sw, sh).data,
    );
    const feeds = {
      [base.input.name]: toInputTensor(planes, sw, sh, base),
      ...recurrent.feeds(carry),
    };
    const out = await segmenter.run(feeds, [base.output.name, ...recurrent.outputs]);
    if (carry) recurrent.keep(out);
    return decodeOutput(out[base.output.name]!, base);
  }

  async function choose(k: KeyInput, index: number): Promise<void> {
    const det = await runDetector(detector, k.planes, k.width, k.height);
    const classes = new Set([PERSON]);
    const people = decodeDetections(det.heatmap, det.sides, {
      classes,
      minScore: MIN_DETECTION,
      nmsIou: 0.5,
      width: k.width,
      height: k.height,
    });
    const whole = resizeMap(await segment(k, null, false), k.width, k.height);
    const motion = k.previousLuma
      ? motionOf(k.previousLuma, k.luma, k.width, k.height, k.frame.index - k.frame.previousIndex)
      : null;
    const cues = candidateCues(whole, motion);
    const candidates: Candidate[] = people.map((d) => ({
      box: d.box,
      classIndex: d.classIndex,
      detScore: d.score,
      ...cues(d.box),
    }));
    const previous = state.shot === k.frame.shot ? state.subject : null;
    const subject = chooseSubject(candidates, { width: k.width, height: k.height, previous });
    const crop = subject ? squareAround(subject.box, stage.margin, k.width, k.height) : null;
    const sameView =
      state.shot === k.frame.shot &&
      (crop === state.crop || (crop && state.crop && boxIou(crop, state.crop) >= KEEP_STATE_IOU));
    if (!sameView) recurrent.reset();
    state = { shot: k.frame.shot, detectedAt: index, subject: subject?.box ?? null, crop };
  }

  return async (feeds: Record<string, TensorData>): Promise<FloatMap> => {
    const k = readKey(feeds);
    if (state.shot !== k.frame.shot || k.frame.index - state.detectedAt >= stage.detectEvery)
      await choose(k, k.frame.index);
    const crop = state.crop;
    const answer = await segment(k, crop, true);
    const out = new Float32Array(k.width * k.height);
    const b = crop ?? ([0, 0, k.width, k.height] as const);
    const [x0, y0] = [Math.round(b[0]), Math.round(b[1])];
    const [cw, ch] = [Math.round(b[2]) - x0, Math.round(b[3]) - y0];
    const placed = resizeMap(answer, cw, ch);
    for (let y = 0; y < ch; y++)
      for (let x = 0; x < cw; x++)
        if (y0 + y < k.height && x0 + x < k.width)
          out[(y0 + y) * k.width + x0 + x] = placed.data[y * cw + x]!;
    const map = { data: out, width: k.width, height: k.height };
    // Between detections the crop follows the person: moved to where the model found them, its
    // size kept (a frame where the model sees only part of them must not shrink it).
    const found = crop && state.subject ? boxOf(map) : null;
    if (crop && found && boxIou(found, state.subject!) >= FOLLOW_IOU) {
      const dx = (found[0] + found[2] - state.subject![0] - state.subject![2]) / 2;
      const dy = (found[1] + found[3] - state.subject![1] - state.subject![3]) / 2;
      state.subject = found;
      state.crop = squareAround(
        [crop[0] + dx, crop[1] + dy, crop[2] + dx, crop[3] + dy],
        0,
        k.width,
        k.height,
      );
    }
    return map;
  };
}

/**
 * A recurrent person model's state (RVM), carried from each frame's run to the next while the
 * view stays the same; none (zeros) on the first frame and after the view changes. A model
 * without state gets no extra feeds.
 */
function recurrentState(base: ModelIo) {
  const r = base.recurrent ?? { state: [] };
  let carried: Record<string, TensorData> | null = null;
  return {
    outputs: r.state.map((s) => s.output),
    feeds: (carry: boolean) => (carry && carried) || initialState(r),
    keep(out: Record<string, TensorData>) {
      carried = nextState(base, r, out);
    },
    reset() {
      carried = null;
    },
  };
}

/**
 * A square around a box, grown by `margin` of its longer side on every side, kept inside the
 * picture where it fits.
 */
export function squareAround(b: Box, margin: number, width: number, height: number): Box {
  const side = Math.min(
    Math.max(width, height),
    Math.max(b[2] - b[0], b[3] - b[1]) * (1 + 2 * margin),
  );
  const cx = (b[0] + b[2]) / 2;
  const cy = (b[1] + b[3]) / 2;
  const fit = (c: number, size: number) =>
    side >= size ? size / 2 : Math.min(size - side / 2, Math.max(side / 2, c));
  const x = fit(cx, width);
  const y = fit(cy, height);
  const hw = Math.min(side, width) / 2;
  const hh = Math.min(side, height) / 2;
  return [x - hw, y - hh, x + hw, y + hh];
}
