/**
 * Batch exports: the CPU fan-out (each export its own render, as `render-output` rows run)
 * against one `use_gpu` pass (`renderBatch`: the original and the mask decoded once for all of
 * them), on the same clip, mask and profiles, in the same run. Both include validation and the
 * posters, as the worker does them.
 *
 *   npm run bench:batch -- [--source <video>] [--seconds 10] [--rounds 1] [--json <file>]
 *
 * Defaults to the first 10 s of sam2_05_juggle_fullbody_1280x720.mp4 and the moving-ellipse
 * test mask (lib/media/fixtures.ts). Reports wall seconds and the CPU seconds of the ffmpeg
 * children; rounds alternate the order (fan-out first, then one pass first) so a host that
 * speeds up or slows down mid-run favours neither.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Recipe } from '../engine/media/recipe';
import { ffmpeg } from '../lib/media/ffmpeg';
import { makeTestMask } from '../lib/media/fixtures';
import { probeVideo } from '../lib/media/probe';
import { renderBatch, renderOutput } from '../lib/media/render';
import { childCpuSeconds } from './lib-bench/cpu';

const { values } = parseArgs({
  options: {
    source: {
      type: 'string',
      default: path.resolve('../shared/testdata/videos/sam2_05_juggle_fullbody_1280x720.mp4'),
    },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});

type Transparent = Recipe & { kind: 'transparent' };
const t = (format: Transparent['format'], maxWidth?: number): Transparent => ({
  kind: 'transparent',
  format,
  ...(maxWidth ? { transform: { max_width: maxWidth } } : {}),
});
/** Ten profiles a web page, an editor and a compositor might ask for at once. */
const PROFILES: Transparent[] = [
  t('webm_vp9'),
  t('webm_vp9', 960),
  t('webm_vp9', 640),
  t('webm_vp9', 320),
  t('stacked_video'),
  t('stacked_video', 640),
  t('mask_video'),
  t('mask_video_inverted'),
  t('mov_prores', 640),
  t('apng', 320),
];

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'keyout-bench-batch-'));
const source = path.join(work, 'source.mp4');
await ffmpeg([
  '-v',
  'error',
  '-i',
  path.resolve(values.source),
  '-t',
  values.seconds,
  '-c',
  'copy',
  source,
]);
const info = await probeVideo(source);
const mask = await makeTestMask(source, info, path.join(work, 'mask.mkv'));
console.log(
  `${path.basename(values.source)} (${values.seconds} s): ` +
    `${info.width}x${info.height} ${info.fps} fps, ` +
    `${info.frameCount} frames; ${PROFILES.length} profiles; ` +
    `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);

interface Run {
  mode: 'fan-out' | 'one pass';
  wallSeconds: number;
  cpuSeconds: number | null;
  bytes: number;
  validated: number;
}

async function measure(
  mode: Run['mode'],
  fn: (dir: string) => Promise<{ bytes: number; validated: number }>,
): Promise<Run> {
  const dir = await fs.mkdtemp(path.join(work, 'run-'));
  const cpu = await childCpuSeconds();
  const started = performance.now();
  const r = await fn(dir);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuAfter = await childCpuSeconds();
  await fs.rm(dir, { recursive: true, force: true });
  return {
    mode,
    wallSeconds,
    cpuSeconds: cpu === null || cpuAfter === null ? null : cpuAfter - cpu,
    ...r,
  };
}

const fanOut = () =>
  measure('fan-out', async (dir) => {
    let bytes = 0;
    for (const [i, recipe] of PROFILES.entries()) {
      const out = await renderOutput({
        source,
        info,
        mask,
        recipe,
        outDir: dir,
        basename: `o${i}`,
        poster: true,
      });
      bytes += out.metadata.bytes;
    }
    return { bytes, validated: PROFILES.length };
  });

const onePass = () =>
  measure('one pass', async (dir) => {
    const results = await renderBatch({
      source,
      info,
      mask,
      outDir: dir,
      outputs: PROFILES.map((recipe, i) => ({ recipe, basename: `o${i}` })),
    });
    const failed = results.filter((r) => !r.ok);
    if (failed.length)
      throw new Error(
        `one pass: ${failed.length} exports failed: ` +
          `${failed.map((f) => (f.ok ? '' : String(f.error))).join('; ')}`,
      );
    return {
      bytes: results.reduce((n, r) => n + (r.ok ? r.output.metadata.bytes : 0), 0),
      validated: results.length,
    };
  });

const runs: Run[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? [fanOut, onePass] : [onePass, fanOut];
  for (const run of order) {
    const r = await run();
    runs.push(r);
    console.log(
      `${r.mode.padEnd(9)} wall ` +
        `${r.wallSeconds.toFixed(1).padStart(6)} s  cpu ` +
        `${(r.cpuSeconds?.toFixed(1) ?? '-').padStart(6)} s  ` +
        `${(r.bytes / 1e6).toFixed(1)} MB  ${r.validated} validated`,
    );
  }
}
const mean = (mode: Run['mode'], k: 'wallSeconds' | 'cpuSeconds') => {
  const xs = runs.filter((r) => r.mode === mode).map((r) => r[k] ?? NaN);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};
const ratio = (k: 'wallSeconds' | 'cpuSeconds') => mean('one pass', k) / mean('fan-out', k);
console.log(
  `one pass / fan-out: wall ${ratio('wallSeconds').toFixed(2)}, ` +
    `cpu ${ratio('cpuSeconds').toFixed(2)}`,
);
if (values.json)
  await fs.writeFile(
    values.json,
    JSON.stringify(
      { source: values.source, seconds: Number(values.seconds), info, runs },
      null,
      2,
    ) + '\n',
  );
await fs.rm(work, { recursive: true, force: true });
