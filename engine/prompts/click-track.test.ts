import { describe, expect, it } from 'vitest';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';
import { CLICK_MODEL_IO, clickRuntime } from './click-model';
import {
  answerLayout,
  clickTracker,
  innermostPoint,
  packAnswer,
  trackBackward,
  unpackAnswer,
  type ClickTracker,
  type TrackAnswer,
  type TrackFrame,
} from './click-track';
import { SAM_DECODER, SAM_ENCODER } from './models';

/**
 * Stand-ins for SAM (the real one runs in the integration tests): the "embedding" is the
 * picture's brightness on a 64² grid of the padded 1024² square, and the "decoder" answers the
 * bright cells inside the box it is given (or all bright cells for clicks alone) — or, with
 * `astray`, a blob in the top-left corner whatever it is asked.
 */
function fakeSam(opts: { astray?: boolean } = {}) {
  const asked: { box: number[] | null; points: number[][] }[] = [];
  const encoder: InferenceSession = {
    run(feeds) {
      const x = feeds.input!;
      const grid = new Float32Array(64 * 64);
      for (let gy = 0; gy < 64; gy++)
        for (let gx = 0; gx < 64; gx++)
          grid[gy * 64 + gx] = x.data[(gy * 16 + 8) * 1024 + gx * 16 + 8]! > 1 ? 1 : 0;
      return Promise.resolve({ output: { data: grid, dims: [1, 1, 64, 64] } });
    },
    release: () => Promise.resolve(),
  };
  const decoder: InferenceSession = {
    run(feeds) {
      const grid = feeds.image_embeddings!.data;
      const coords = feeds.point_coords!.data;
      const labels = [...feeds.point_labels!.data];
      const b = labels.indexOf(2);
      const box =
        b >= 0
          ? [coords[2 * b]!, coords[2 * b + 1]!, coords[2 * b + 2]!, coords[2 * b + 3]!]
          : null;
      asked.push({
        box,
        points: labels.flatMap((l, i) =>
          l === 0 || l === 1 ? [[coords[2 * i]!, coords[2 * i + 1]!, l]] : [],
        ),
      });
      const low = new Float32Array(256 * 256);
      for (let ly = 0; ly < 256; ly++) {
        for (let lx = 0; lx < 256; lx++) {
          const [x, y] = [lx * 4 + 2, ly * 4 + 2];
          const inBox = !box || (x >= box[0]! && x < box[2]! && y >= box[1]! && y < box[3]!);
          const on = opts.astray
            ? x < 100 && y < 100
            : inBox && grid[Math.floor(y / 16) * 64 + Math.floor(x / 16)] === 1;
          low[ly * 256 + lx] = on ? 10 : -10;
        }
      }
      return Promise.resolve({
        low_res_masks: { data: low, dims: [1, 1, 256, 256] },
        iou_predictions: { data: Float32Array.of(0.9), dims: [1, 1] },
      });
    },
    release: () => Promise.resolve(),
  };
  return { encoder, decoder, asked };
}

const [FW, FH] = [256, 144];
/**
 * A 256×144 frame: textured dark background, a bright 48×48 square at x = ox (none when ox is
 * null).
 */
function frame(index: number, ox: number | null): TrackFrame {
  const planes = [0, 1, 2].map(() => new Float32Array(FW * FH));
  for (let y = 0; y < FH; y++) {
    for (let x = 0; x < FW; x++) {
      const inside = ox !== null && x >= ox && x < ox + 48 && y >= 48 && y < 96;
      for (const p of planes) p[y * FW + x] = inside ? 240 : 30 + ((x * 7 + y * 13) % 11) * 4;
    }
  }
  return { index, planes, width: FW, height: FH };
}

const opts = { sourceWidth: 512, sourceHeight: 288, flowSide: 128 };
/**
 * The answer's probability at the frame's size, thresholded: the columns it covers on the square's
 * middle row.
 */
/** Tracks backwards from a click at (x, 144): frames as [index, the square's column], in order. */
function trackBackFrom(
  tracker: ClickTracker,
  x: number,
  at: readonly (readonly [number, number])[],
  onAnswer: (a: TrackAnswer) => void,
): Promise<void> {
  const frames = at.map(([i, ox]) => frame(i, ox));
  return trackBackward(tracker, frames, [{ x, y: 144, include: true }], onAnswer);
}

function columns(a: TrackAnswer): [number, number] | null {
  if (!a.state.mask) return null;
  const m = a.state.mask;
  const row = Math.floor(m.height / 2);
  const on = [...Array(m.width).keys()].filter((x) => m.data[row * m.width + x]! >= 0.5);
  // In the frame's pixels (the state is at the flow size, half of it).
  return on.length ? [on[0]! * 2, (on.at(-1)! + 1) * 2] : null;
}

describe('clickTracker', () => {
  it('answers the clicks in source pixels, then follows the object as it moves', async () => {
    const sam = fakeSam();
    const tracker = clickTracker(sam, opts);
    // A click at (200, 144) in the 512×288 source is (100, 72) in the 256×144 frame: on the square
    // at 80.
    const first = await tracker.click(frame(0, 80), [{ x: 200, y: 144, include: true }]);
    expect(sam.asked[0]!.points).toEqual([[400, 288, 1]]);
    expect(columns(first)).toEqual([80, 128]);
    const next = await tracker.follow(frame(4, 96), first.state);
    expect(columns(next)).toEqual([96, 144]);
    // Asked from the box the flow carried the square to, and a click inside it.
    const [x0, , x1] = sam.asked[1]!.box!;
    expect(x0).toBeGreaterThan(330);
    expect(x1).toBeLessThan(620);
    expect(sam.asked[1]!.points).toHaveLength(1);
    expect(tracker.stats).toMatchObject({ keys: 2, carried: 0, lost: 0 });
  });

  it(
    'keeps the carried mask when SAM answers somewhere else, and ' +
      'loses an object with nothing left to carry',
    async () => {
      const tracker = clickTracker(fakeSam({ astray: true }), opts);
      const first = await clickTracker(fakeSam(), opts).click(frame(0, 80), [
        { x: 200, y: 144, include: true },
      ]);
      const kept = await tracker.follow(frame(4, 96), first.state);
      expect(tracker.stats.carried).toBe(1);
      expect(columns(kept)![0]).toBeGreaterThan(80);
      const nothing = await clickTracker(fakeSam(), opts).click(frame(0, null), [
        { x: 200, y: 144, include: true },
      ]);
      expect(nothing.logits).toBeNull();
      const after = await tracker.follow(frame(4, 96), nothing.state);
      expect(after.logits).toBeNull();
      expect(tracker.stats.lost).toBe(1);
    },
  );

  it('tracks backwards from the clicked frame, nearest first', async () => {
    const tracker = clickTracker(fakeSam(), opts);
    const got: [number, [number, number] | null][] = [];
    const at = [
      [8, 120],
      [4, 100],
      [0, 80],
    ] as const;
    await trackBackFrom(tracker, 280, at, (a) => void got.push([a.state.index, columns(a)]));
    expect(got).toEqual([
      [8, [120, 168]],
      [4, [100, 148]],
      [0, [80, 128]],
    ]);
  });
});

describe('packed answers', () => {
  it('come back as they were, lost ones too', async () => {
    const a = await clickTracker(fakeSam(), opts).click(frame(3, 80), [
      { x: 200, y: 144, include: true },
    ]);
    const layout = answerLayout(FW, FH, opts.flowSide);
    const back = unpackAnswer(packAnswer(a, layout), layout);
    expect(back.state.index).toBe(3);
    expect([...back.logits!.data]).toEqual([...a.logits!.data]);
    expect([...back.state.mask!.data]).toEqual([...a.state.mask!.data]);
    expect([...back.state.small.data]).toEqual([...a.state.small.data]);
    const lost = unpackAnswer(
      packAnswer({ ...a, logits: null, state: { ...a.state, mask: null } }, layout),
      layout,
    );
    expect(lost.logits).toBeNull();
    expect(lost.state.mask).toBeNull();
  });
});

describe('innermostPoint', () => {
  it('is the point farthest inside the region, or null without one', () => {
    const w = 20;
    const h = 10;
    const data = new Float32Array(w * h);
    for (let y = 1; y < 9; y++) for (let x = 2; x < 16; x++) data[y * w + x] = 1;
    const p = innermostPoint({ data, width: w, height: h })!;
    expect(p.y).toBeGreaterThan(3);
    expect(p.y).toBeLessThan(7);
    expect(p.x).toBeGreaterThan(5);
    expect(p.x).toBeLessThan(13);
    expect(innermostPoint({ data: new Float32Array(w * h), width: w, height: h })).toBeNull();
  });
});

describe('clickRuntime', () => {
  it(
    'reads the pre-pass answers back and follows the keys after the ' +
      'clicked frame from the nearest one',
    async () => {
      const sam = fakeSam();
      const pre = clickTracker(sam, opts);
      const known = new Map<number, TrackAnswer>();
      const at = [
        [4, 96],
        [0, 80],
      ] as const;
      await trackBackFrom(pre, 240, at, (a) => void known.set(a.state.index, a));
      const runtime: InferenceRuntime = {
        name: 'fake',
        load: (m) =>
          Promise.resolve(
            m.id === SAM_ENCODER.id
              ? sam.encoder
              : m.id === SAM_DECODER.id
                ? sam.decoder
                : Promise.reject(new Error(m.id)),
          ),
      };
      const { runtime: click, stats } = clickRuntime(runtime, {
        ...opts,
        click: { frame: 4, points: [] },
        known: { indices: new Set(known.keys()), load: (i) => Promise.resolve(known.get(i)!) },
      });
      const session = await click.load(CLICK_MODEL_IO);
      const ask = async (index: number, ox: number) => {
        const f = frame(index, ox);
        const rgb: TensorData = {
          data: Float32Array.from([...f.planes[0]!, ...f.planes[1]!, ...f.planes[2]!]),
          dims: [1, 3, FH, FW],
        };
        const out = (
          await session.run({ rgb, frame_index: { data: Float32Array.of(index), dims: [1] } }, [
            'probability',
          ])
        ).probability!;
        return [...Array(FW).keys()].filter((x) => out.data[72 * FW + x]! >= 0.5);
      };
      const asked = sam.asked.length;
      expect((await ask(0, 80)).length).toBeGreaterThan(40);
      expect((await ask(4, 96))[0]).toBe(96);
      expect(sam.asked.length).toBe(asked);
      expect(stats.reused).toBe(2);
      // Keys after the clicked frame are followed from the nearest key answered: 8 from 4, then 6
      // from 4 or 8.
      expect((await ask(8, 112))[0]).toBe(112);
      expect((await ask(6, 104))[0]).toBe(104);
      expect(sam.asked.length).toBe(asked + 2);
      await session.release();
    },
  );
});
