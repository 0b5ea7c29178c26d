import { describe, expect, it } from 'vitest';
import { ISNET } from '../models/catalog';
import { DETECTOR_IO } from '../prompts/detector';
import { CENTERNET } from '../prompts/models';
import type { InferenceRuntime, TensorData } from '../runtime';
import { TIERS, type TierConfig } from '../tiers';
import { createVideoMatter } from '.';

/**
 * A stand-in for the model (the real ones run in the integration tests): it answers "subject"
 * wherever the input is bright, and records which frames it was asked about by their mean.
 * With `offThread` it answers a little later, as a runtime on another thread does, and the
 * `fail`-th run (1-based) throws instead.
 */
function brightnessModel(
  seen: number[],
  offThread?: { inFlight: number; fail?: number },
): InferenceRuntime {
  const answer = (feeds: Record<string, TensorData>) => {
    const x = Object.values(feeds)[0]!;
    const [, , h, w] = x.dims as [number, number, number, number];
    const n = w * h;
    const data = new Float32Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      // ISNet input is (v - 128) / 256 per channel; bright > mid-grey.
      const v = x.data[i]! * 256 + 128;
      data[i] = v > 128 ? 1 : 0;
      sum += v;
    }
    seen.push(Math.round(sum / n));
    return { output: { data, dims: [1, 1, h, w] } satisfies TensorData };
  };
  return {
    name: 'brightness',
    load: () =>
      Promise.resolve({
        inFlight: offThread?.inFlight,
        run(feeds) {
          const out = answer(feeds);
          if (!offThread) return Promise.resolve(out);
          const n = seen.length;
          return new Promise((resolve, reject) => {
            setTimeout(
              () => (n === offThread.fail ? reject(new Error('model crashed')) : resolve(out)),
              1 + (n % 3),
            );
          });
        },
        release: () => Promise.resolve(),
      }),
  };
}

/** ISNet's manifest with a composite's names: input "rgb", output "probability". */
const RGB_TO_PROBABILITY = {
  ...ISNET,
  input: { ...ISNET.input, name: 'rgb' },
  output: { ...ISNET.output, name: 'probability' },
};

/**
 * A stand-in for such a composite that answers "subject" everywhere, after `look`ing at each run's
 * feeds.
 */
function allSubjectModel(
  name: string,
  look: (feeds: Record<string, TensorData>) => void,
): InferenceRuntime {
  return {
    name,
    load: () =>
      Promise.resolve({
        run(feeds) {
          look(feeds);
          const [, , mh, mw] = feeds.rgb!.dims as [number, number, number, number];
          return Promise.resolve({
            probability: { data: new Float32Array(mw * mh).fill(1), dims: [1, 1, mh, mw] },
          });
        },
        release: () => Promise.resolve(),
      }),
  };
}

/** A 64x36 frame: grey textured background, white 16x16 square at x = ox; `shade` tints it. */
function frame(ox: number, shade = 60) {
  const [w, h] = [64, 36];
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inside = x >= ox && x < ox + 16 && y >= 10 && y < 26;
      const v = inside ? 250 : shade + ((x * 7 + y * 13) % 11) * 3;
      data.fill(v, (y * w + x) * 4, (y * w + x) * 4 + 3);
      data[(y * w + x) * 4 + 3] = 255;
    }
  }
  return { data, width: w, height: h };
}

/**
 * A 64x36 frame: a red bar `width` columns wide (from x = 8, y 8..27) on textured green of the
 * same luma, so only colour tells them apart.
 */
function redBar(width: number) {
  const [w, h] = [64, 36];
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const red = x >= 8 && x < 8 + width && y >= 8 && y < 28;
      const t = ((x * 7 + y * 13) % 11) * 2;
      data.set(red ? [200, 60, 60, 255] : [60 + t, 118 + t, 40, 255], (y * w + x) * 4);
    }
  }
  return { data, width: w, height: h };
}

/** Whether model input pixel `i` (of `n` per plane) is red: R well above G. */
const isRed = (x: TensorData, i: number, n: number) => x.data[i]! - x.data[n + i]! > 0.2;

/**
 * A stand-in model answering `p(input, pixel, pixels per plane, width, height)` per pixel of its
 * input.
 */
function stubModel(
  p: (x: TensorData, i: number, n: number, mw: number, mh: number) => number,
): InferenceRuntime {
  return {
    name: 'stub',
    load: () =>
      Promise.resolve({
        run(feeds) {
          const x = Object.values(feeds)[0]!;
          const [, , mh, mw] = x.dims as [number, number, number, number];
          const n = mw * mh;
          const data = new Float32Array(n);
          for (let i = 0; i < n; i++) data[i] = p(x, i, n, mw, mh);
          return Promise.resolve({ output: { data, dims: [1, 1, mh, mw] } });
        },
        release: () => Promise.resolve(),
      }),
  };
}

const tier: TierConfig = {
  ...TIERS.original,
  // The matter's own mechanics, under a stand-in model: the subject stage is tested in
  // engine/subject/.
  subject: null,
  inputSide: 64,
  workSide: 64,
  keyframes: {
    interval: 4,
    fuseRadius: 1,
    bisectBelow: 0,
    bisectUnexplainedAbove: 0,
    unexplainedScale: 0,
    flowSide: 64,
    cutThreshold: 0.15,
  },
  mainSubjectMinFraction: null,
  guided: null,
};

async function runAll(
  frames: ReturnType<typeof frame>[],
  t: TierConfig,
  smartSampling = true,
  offThread?: { inFlight: number },
) {
  const seen: number[] = [];
  const matter = await createVideoMatter({
    runtime: brightnessModel(seen, offThread),
    manifest: ISNET,
    tier: t,
    threshold: 0.5,
    smartSampling,
  });
  const alphas: Uint8Array[] = [];
  let maxHeld = 0;
  for (const [i, f] of frames.entries()) {
    alphas.push(...(await matter.push(f)));
    maxHeld = Math.max(maxHeld, i + 1 - alphas.length);
  }
  alphas.push(...(await matter.flush()));
  return { alphas, inferences: matter.stats.inferences, maxHeld, latency: matter.latency, seen };
}

describe('video matter', () => {
  it('returns one alpha per frame, in order, holding back no more than its latency', async () => {
    const frames = Array.from({ length: 11 }, (_, i) => frame(8 + i * 2));
    const { alphas, inferences, maxHeld, latency } = await runAll(frames, tier);
    expect(alphas).toHaveLength(11);
    // Keys at 0, 4, 8 and the last frame (10).
    expect(inferences).toBe(4);
    expect(maxHeld).toBeLessThanOrEqual(latency + 1);
    // Each frame's matte follows its own square, keyframe or not.
    alphas.forEach((a, i) => {
      const ox = 8 + i * 2;
      expect(a[18 * 64 + ox + 8]).toBe(255);
      expect(a[18 * 64 + ox - 4]).toBe(0);
    });
  });

  it('adds a key halfway between keys that disagree, at the end of a shot too', async () => {
    // The square jumps between two places, so keys 0|4, 4|8 and 8|10 (the last frame) disagree.
    const at = [6, 6, 6, 6, 40, 40, 40, 40, 6, 6, 40];
    const bisecting = {
      ...tier,
      keyframes: { ...tier.keyframes, bisectBelow: 0.75, cutThreshold: 1 },
    };
    const { alphas, inferences } = await runAll(
      at.map((x) => frame(x)),
      bisecting,
    );
    // Keys 0, 4, 8, 10 and the midpoints 2, 6, 9: midpoints are built from frames held back.
    expect(inferences).toBe(7);
    expect(alphas).toHaveLength(11);
    for (const i of [0, 2, 4, 6, 8, 9, 10]) expect(alphas[i]![18 * 64 + at[i]! + 8]).toBe(255);
  });

  it(
    'adds a key between keys that agree when the frames between ' +
      'them are not what the keys show moved',
    async () => {
      // The square leaves and comes back between keys 0 and 8, which both see it at 6: only the
      // frames in between tell that carrying the keys' matte along the flow would be wrong.
      const at = [6, 6, 6, 40, 40, 40, 6, 6, 6];
      const checking = (unexplained: number) => ({
        ...tier,
        keyframes: {
          ...tier.keyframes,
          interval: 8,
          bisectUnexplainedAbove: unexplained,
          cutThreshold: 1,
        },
      });
      const plain = await runAll(
        at.map((x) => frame(x)),
        checking(0),
      );
      expect(plain.inferences).toBe(2);
      expect(plain.alphas[4]![18 * 64 + 48]).toBe(0);
      const checked = await runAll(
        at.map((x) => frame(x)),
        checking(0.1),
      );
      // Key 4 (the midpoint) is added, and with it every frame follows its own square.
      expect(checked.inferences).toBe(3);
      checked.alphas.forEach((a, i) => {
        expect(a[18 * 64 + at[i]! + 8]).toBe(255);
        expect(a[18 * 64 + (at[i] === 6 ? 48 : 14)]).toBe(0);
      });
    },
  );

  it(
    'makes the frames it is given keys too, and tells a model that ' +
      'asks which frame it is looking at',
    async () => {
      const indices: number[] = [];
      const runtime = allSubjectModel('indexed', (feeds) => {
        indices.push(feeds.frame_index!.data[0]!);
      });
      const manifest = { ...RGB_TO_PROBABILITY, frameIndex: 'frame_index' };
      const matter = await createVideoMatter({ runtime, manifest, tier, keyframes: new Set([6]) });
      for (let i = 0; i < 11; i++) await matter.push(frame(8 + i));
      await matter.flush();
      // The interval's keys (0, 4, 8 and the last frame) and frame 6; the interval goes on from 6.
      expect(indices).toEqual([0, 4, 6, 10]);
    },
  );

  it(
    "tells a model that asks for the frame's context its index, " +
      'shot, size and the luma of a frame shortly before it in its ' +
      'shot',
    async () => {
      const told: { info: number[]; luma: number[]; previous: number[] | null }[] = [];
      const runtime = allSubjectModel('context', (feeds) => {
        const dims = (t: TensorData | undefined) => (t ? [...t.dims] : null);
        told.push({
          info: [...feeds.frame_info!.data],
          luma: dims(feeds.luma)!,
          previous: dims(feeds.previous_luma),
        });
      });
      const manifest = {
        ...RGB_TO_PROBABILITY,
        frameContext: { info: 'frame_info', luma: 'luma', previousLuma: 'previous_luma', gap: 2 },
      };
      // Keys every 4th frame, frame 7 asked for; frame 6 starts a second shot.
      const matter = await createVideoMatter({ runtime, manifest, tier, keyframes: new Set([7]) });
      const shots = [
        ...Array.from({ length: 6 }, (_, i) => frame(8 + i)),
        ...Array.from({ length: 4 }, (_, i) => frame(8 + i, 200)),
      ];
      for (const f of shots) await matter.push(f);
      await matter.flush();
      // [index, shot, width, height, index of the previous luma's frame (its own where there is
      // none)].
      expect(told.map((t) => t.info)).toEqual([
        [0, 0, 64, 36, 0],
        [4, 0, 64, 36, 2],
        [5, 0, 64, 36, 3],
        [6, 1, 64, 36, 6],
        [7, 1, 64, 36, 6],
        [9, 1, 64, 36, 7],
      ]);
      expect(told.map((t) => t.previous !== null)).toEqual([false, true, true, false, true, true]);
      expect(told[1]!.luma).toEqual(told[1]!.previous);
    },
  );

  it('runs the model on every frame without smart sampling', async () => {
    const frames = Array.from({ length: 6 }, (_, i) => frame(10 + i));
    expect((await runAll(frames, tier, false)).inferences).toBe(6);
  });

  it('never carries a matte across a cut', async () => {
    // Shot 1: dark background, square at 10. Shot 2: bright background (all "subject" to the
    // stand-in).
    const frames = [
      frame(10),
      frame(10),
      frame(10),
      frame(10, 200),
      frame(10, 200),
      frame(10, 200),
    ];
    const { alphas, seen } = await runAll(frames, tier);
    expect(alphas).toHaveLength(6);
    // The shot's last frame (2) and the new shot's first (3) are keys, besides 0 and the end.
    expect(seen).toHaveLength(4);
    expect(alphas[2]![18 * 64 + 40]).toBe(0);
    expect(alphas[3]![18 * 64 + 40]).toBe(255);
  });

  it('keeps the square edges with the guided filter solved on a coarser grid', async () => {
    const frames = Array.from({ length: 3 }, (_, i) => frame(20 + i));
    const guided = (subsample: number) => ({
      ...tier,
      keyframes: { ...tier.keyframes, interval: 1 },
      guided: { radius: 2, eps: 1e-3, subsample },
    });
    const [fine, coarse] = [
      (await runAll(frames, guided(1))).alphas,
      (await runAll(frames, guided(2))).alphas,
    ];
    coarse.forEach((a, i) => {
      const row = Array.from(a.subarray(18 * 64, 19 * 64));
      // Subject exactly on the square's columns, as with the full grid.
      expect(row.findIndex((v) => v === 255)).toBe(20 + i);
      expect(row.lastIndexOf(255)).toBe(35 + i);
      expect(row).toEqual(Array.from(fine[i]!.subarray(18 * 64, 19 * 64)));
    });
  });

  it(
    'gives the same alphas with model runs outstanding on another ' +
      'thread, holding back at most its latency',
    async () => {
      // A square that drifts, then jumps (bisection), then a cut.
      const xs = [6, 8, 10, 12, 14, 40, 40, 40, 8, 8, 10, 12, 14, 16];
      const frames = xs.map((x, i) => frame(x, i < 11 ? 60 : 200));
      const soft = { ...tier, guided: { radius: 2, eps: 1e-3 } };
      const bisecting = { ...soft, keyframes: { ...tier.keyframes, bisectBelow: 0.75 } };
      const everyFrame = { ...soft, keyframes: { ...tier.keyframes, interval: 1, fuseRadius: 2 } };
      // Sparser keys, halved where the frames between are not explained: the square leaves and
      // comes back between keys 0 and 8.
      const unexplained = {
        ...soft,
        keyframes: { ...tier.keyframes, interval: 8, bisectUnexplainedAbove: 0.1, cutThreshold: 1 },
      };
      const excursion = [6, 6, 6, 40, 40, 40, 6, 6, 6, 8, 10].map((x) => frame(x));
      const cases: [TierConfig, ReturnType<typeof frame>[]][] = [
        [soft, frames],
        [bisecting, frames],
        [everyFrame, frames],
        [unexplained, excursion],
      ];
      for (const [t, frames] of cases) {
        const inline = await runAll(frames, t);
        for (const inFlight of [1, 3]) {
          const threaded = await runAll(frames, t, true, { inFlight });
          expect(threaded.inferences).toBe(inline.inferences);
          expect(threaded.alphas).toEqual(inline.alphas);
          expect(threaded.latency).toBeGreaterThan(inline.latency);
          expect(threaded.maxHeld).toBeLessThanOrEqual(threaded.latency + 1);
        }
      }
    },
  );

  it('reports a model run that fails while outstanding, and starts clean after reset', async () => {
    const seen: number[] = [];
    const matter = await createVideoMatter({
      runtime: brightnessModel(seen, { inFlight: 2, fail: 2 }),
      manifest: ISNET,
      tier,
      threshold: 0.5,
    });
    const frames = Array.from({ length: 12 }, (_, i) => frame(8 + i));
    await expect(
      (async () => {
        for (const f of frames) await matter.push(f);
        await matter.flush();
      })(),
    ).rejects.toThrow('model crashed');
    matter.reset();
    const alphas: Uint8Array[] = [];
    for (const f of frames.slice(0, 5)) alphas.push(...(await matter.push(f)));
    alphas.push(...(await matter.flush()));
    expect(alphas).toHaveLength(5);
    expect(alphas[4]![18 * 64 + 8 + 4 + 8]).toBe(255);
  });

  it(
    "with colour models, stops carrying a key's subject onto " +
      'background the subject has uncovered since',
    async () => {
      // A red bar on green (the same luma, so only colour tells them apart) shrinks from 24 to 8
      // columns between the keys at 0 and 8; a stand-in model sees red as subject.
      const w = 64;
      const redModel = stubModel((x, i, n) => (isRed(x, i, n) ? 1 : 0));
      const frames = Array.from({ length: 9 }, (_, i) => redBar(24 - 2 * i));
      const shrinking = { ...tier, keyframes: { ...tier.keyframes, interval: 8, fuseRadius: 0 } };
      // Mean alpha over the columns of frame 4 the bar has left since key 0 (x 24..31).
      const uncovered = async (colourModel: boolean) => {
        const matter = await createVideoMatter({
          runtime: redModel,
          manifest: ISNET,
          tier: { ...shrinking, colourModel },
          threshold: null,
        });
        const alphas: Uint8Array[] = [];
        for (const f of frames) alphas.push(...(await matter.push(f)));
        alphas.push(...(await matter.flush()));
        let sum = 0;
        for (let y = 10; y < 26; y++) for (let x = 24; x < 32; x++) sum += alphas[4]![y * w + x]!;
        return { mean: sum / (16 * 8 * 255), bar: alphas[4]![18 * w + 12]! };
      };
      const without = await uncovered(false);
      const withColour = await uncovered(true);
      expect(without.mean).toBeGreaterThan(0.3);
      expect(withColour.mean).toBeLessThan(0.15);
      // The bar itself stays subject.
      expect(withColour.bar).toBe(255);
    },
  );

  it(
    'with colour models, checks the keys as it checks the frames ' +
      'between them, so they do not pop',
    async () => {
      // A red bar on a still green field; a stand-in model is sure of the bar and unsure (0.5) of a
      // strip of the field, as ISNet was of grass on a mound, while the same green is background
      // around it.
      const [w, h] = [64, 36];
      const unsureModel = stubModel((x, i, n, mw, mh) => {
        const [px, py] = [((i % mw) * w) / mw, (Math.floor(i / mw) * h) / mh];
        return isRed(x, i, n) ? 1 : px >= 40 && px < 44 && py >= 8 && py < 28 ? 0.5 : 0;
      });
      const still = { ...tier, keyframes: { ...tier.keyframes, interval: 8 }, colourModel: true };
      const matter = await createVideoMatter({
        runtime: unsureModel,
        manifest: ISNET,
        tier: still,
        threshold: null,
      });
      const alphas: Uint8Array[] = [];
      for (let i = 0; i < 17; i++) alphas.push(...(await matter.push(redBar(16))));
      alphas.push(...(await matter.flush()));
      const block = (a: Uint8Array) => {
        let sum = 0;
        for (let y = 12; y < 24; y++) for (let x = 41; x < 43; x++) sum += a[y * w + x]!;
        return sum / (12 * 2 * 255);
      };
      // Keys 0, 8 and 16 and the frames between show the block alike, and the bar stays subject.
      const shown = alphas.map(block);
      expect(Math.max(...shown) - Math.min(...shown)).toBeLessThan(0.02);
      expect(shown[8]).toBeLessThan(0.2);
      expect(alphas[8]![18 * w + 12]).toBe(255);
    },
  );
});

describe('recurrent models', () => {
  /**
   * A stand-in recurrent model: its state output counts the frames of the run so far (the
   * state input + 1), and its alpha says how many frames the state had seen (count / 10).
   */
  function countingModel(seen: number[], delay: boolean): InferenceRuntime {
    return {
      name: 'counting',
      load: () =>
        Promise.resolve({
          inFlight: delay ? 1 : 0,
          run(feeds) {
            const src = feeds.src!;
            const [, h, w] = src.dims as [number, number, number, number];
            const count = feeds.r1i!.data[0]! + 1;
            seen.push(feeds.r1i!.data[0]!);
            const out = {
              pha: { data: new Float32Array(w * h).fill(count / 10), dims: [1, h, w, 1] },
              r1o: { data: new Float32Array([count, count]), dims: [1, 1, 2, 1] },
            };
            return delay
              ? new Promise((resolve) => setTimeout(() => resolve(out), 2))
              : Promise.resolve(out);
          },
          release: () => Promise.resolve(),
        }),
    };
  }
  const manifest = {
    ...ISNET,
    id: 'counting',
    input: { ...ISNET.input, name: 'src', layout: 'nhwc' as const },
    output: {
      name: 'pha',
      layout: 'nhwc' as const,
      channels: 1,
      decode: { kind: 'probability' as const, channel: 0 },
    },
    recurrent: { state: [{ input: 'r1i', output: 'r1o' }] },
  };
  const tier: TierConfig = {
    ...TIERS.human,
    model: 'counting',
    inputSide: 64,
    keepAspect: true,
    workSide: 64,
    guided: null,
    mainSubjectMinFraction: null,
    subject: null,
  };

  it.each([false, true])(
    'carries the state frame to frame, from zeros at the start and ' +
      'again after a cut and after reset() (runs off-thread: %s)',
    async (delay) => {
      const seen: number[] = [];
      const matter = await createVideoMatter({
        runtime: countingModel(seen, delay),
        manifest,
        tier,
      });
      const alphas: Uint8Array[] = [];
      for (let i = 0; i < 4; i++) alphas.push(...(await matter.push(frame(10))));
      // A cut: the thumbnail changes completely.
      for (let i = 0; i < 3; i++) alphas.push(...(await matter.push(frame(40, 200))));
      alphas.push(...(await matter.flush()));
      expect(seen).toEqual([0, 1, 2, 3, 0, 1, 2]);
      // The alpha each frame got is the state count its own run produced.
      expect(alphas.map((a) => Math.round(a[0]! / 25.5))).toEqual([1, 2, 3, 4, 1, 2, 3]);
      matter.reset();
      for (let i = 0; i < 2; i++) await matter.push(frame(10));
      await matter.flush();
      expect(seen.slice(7)).toEqual([0, 1]);
    },
  );

  it(
    'carries the state through the people stage: on the frame it ' +
      'mattes, not on the whole-picture look the detector frames add',
    async () => {
      const seen: number[] = [];
      const counting = countingModel(seen, false);
      // A detector that finds nobody: the person model sees the whole picture on every frame.
      const nobody = {
        run: () =>
          Promise.resolve({
            [DETECTOR_IO.heatmap]: { data: new Float32Array(80), dims: [1, 80, 1, 1] },
            [DETECTOR_IO.sides]: { data: new Float32Array(4), dims: [1, 4, 1, 1] },
          }),
        release: () => Promise.resolve(),
      };
      const runtime: InferenceRuntime = {
        name: 'counting + detector',
        load: (m) => (m.id === CENTERNET.id ? Promise.resolve(nobody) : counting.load(m)),
      };
      const people: TierConfig = {
        ...tier,
        subject: { kind: 'people', detectEvery: 3, motionGap: 2, margin: 0.15, cropSide: 32 },
      };
      const matter = await createVideoMatter({
        runtime,
        manifest: { ...manifest, input: { ...manifest.input, size: 'multiple-of-32' } },
        tier: people,
      });
      for (let i = 0; i < 4; i++) await matter.push(frame(10));
      for (let i = 0; i < 2; i++) await matter.push(frame(40, 200)); // a cut
      await matter.flush();
      // Frames 0 and 3 and the cut's first frame look at the whole picture from zeros first.
      expect(seen).toEqual([0, 0, 1, 2, 0, 3, 0, 0, 1]);
    },
  );

  it('refuses a tier that would run it on keyframes only', async () => {
    const sparse = { ...tier, keyframes: { ...tier.keyframes, interval: 5 } };
    await expect(
      createVideoMatter({ runtime: countingModel([], false), manifest, tier: sparse }),
    ).rejects.toThrow(/recurrent.*every frame/);
  });
});
