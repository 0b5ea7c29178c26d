/**
 * Encodes every output format from one clip and prints, per format, the file size, the encode
 * speed (frames per second of the ffmpeg runs) and the validation result and time.
 *
 *   npx tsx scripts/bench-outputs.ts [--source <video>] [--mask <mask.mkv>] [--formats a,b]
 *        [--json <file>]
 *
 * Defaults to the 10 s clip sam2_05_juggle_fullbody_1280x720.mp4 and the moving-ellipse test
 * mask (lib/media/fixtures.ts). The steps are those renderOutput runs (plan → ffmpeg → ZIP →
 * validate), timed one by one. Besides wall-clock speed it reports the CPU seconds ffmpeg used
 * (Linux: the children's time in /proc/self/stat, plus this process's own for hevc_alpha's
 * in-process encode), which stays comparable on a busy machine. Sticker formats have their own
 * benchmark (scripts/bench-stickers.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LOTTIE_OPTIONS, TRANSPARENT_FORMATS } from '../engine/formats';
import { formatOf, recipeLabel, type Recipe } from '../engine/media/recipe';
import { planRender } from '../engine/media/render-plan';
import { env } from '../lib/env';
import { unavailableReason } from '../lib/media/capabilities';
import { ffmpeg } from '../lib/media/ffmpeg';
import { encodeHevcAlpha } from '../lib/media/hevc-alpha';
import { makeTestMask } from '../lib/media/fixtures';
import { countFrames } from '../lib/media/frames';
import { writeLottie } from '../lib/media/lottie';
import { probeBackground } from '../lib/media/background';
import { probeVideo } from '../lib/media/probe';
import { runEncode } from '../lib/media/run-ffmpeg';
import { validateOutput } from '../lib/media/validate';
import { writeZip } from '../lib/media/zip';
import { childCpuSeconds } from './lib-bench/cpu';

const { values } = parseArgs({
  options: {
    source: {
      type: 'string',
      default: path.resolve('../shared/testdata/videos/sam2_05_juggle_fullbody_1280x720.mp4'),
    },
    mask: { type: 'string' },
    formats: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

interface Row {
  format: string;
  extension: string;
  bytes: number | null;
  encodeSeconds: number | null;
  encodeFps: number | null;
  /** CPU seconds (user + system) the encode's ffmpeg processes used. */
  encodeCpuSeconds: number | null;
  validation: string;
  validateSeconds: number | null;
  metadata?: unknown;
}

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'keyout-bench-outputs-'));
const source = path.resolve(values.source);
const info = await probeVideo(source);
const mask = values.mask
  ? path.resolve(values.mask)
  : await makeTestMask(source, info, path.join(work, 'mask.mkv'));
const maskFrames = await countFrames(mask, 'matroska');
const image = path.join(work, 'background.jpg');
await ffmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=1920x1080', '-frames:v', '1', image]);
const background = await probeBackground(image);

const recipes: Recipe[] = [
  ...TRANSPARENT_FORMATS.map((format) => ({ kind: 'transparent' as const, format })),
  // A Lottie without smart sampling: every frame embedded (the default holds frames that barely
  // change).
  {
    kind: 'transparent',
    format: 'lottie',
    lottie: { ...DEFAULT_LOTTIE_OPTIONS, smartSampling: false },
  },
  { kind: 'color', color: '#00B140', exportFormat: 'mp4' },
  {
    kind: 'blur',
    blur: { mode: 'background', intensity: 50, type: 'gaussian' },
    exportFormat: 'mp4',
  },
  {
    kind: 'composition',
    background: { file: image },
    template: 'full',
    backgroundAudio: false,
    backgroundAudioVolume: 1,
    exportFormat: 'mp4',
  },
];
const wanted = values.formats?.split(',');
const rows: Row[] = [];
console.log(
  `source ${path.basename(source)}: ${info.width}x${info.height} ` +
    `${info.fps} fps, ${maskFrames} frames; ${os.cpus().length} ` +
    `cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `${'format'.padEnd(28)} ${'bytes'.padStart(11)} ` +
    `${'enc s'.padStart(7)} ${'enc fps'.padStart(8)} ` +
    `${'cpu s'.padStart(7)} ${'val s'.padStart(6)}  validation`,
);

for (const recipe of recipes) {
  const label =
    recipe.kind === 'transparent' && recipe.lottie
      ? `${recipeLabel(recipe)}_every_frame`
      : recipeLabel(recipe);
  if (wanted && !wanted.includes(recipeLabel(recipe))) continue;
  const kind = formatOf(recipe);
  const row: Row = {
    format: label,
    extension: kind.extension,
    bytes: null,
    encodeSeconds: null,
    encodeFps: null,
    encodeCpuSeconds: null,
    validation: '',
    validateSeconds: null,
  };
  const unavailable = await unavailableReason(kind);
  if (unavailable) {
    row.validation = `refused: ${unavailable.split('.')[0]}`;
    rows.push(row);
    print(row);
    continue;
  }
  const dir = await fs.mkdtemp(path.join(work, `${label}-`));
  const output = path.join(dir, `${label}.${kind.extension}`);
  try {
    const plan = planRender({
      recipe,
      info,
      source,
      mask,
      maskFrames,
      maxPixels: env().MAX_FRAME_PIXELS,
      background,
      output,
      workDir: dir,
    });
    for (const d of [plan.zip?.directory, plan.lottie?.directory])
      if (d) await fs.mkdir(d, { recursive: true });
    let t = performance.now();
    const cpu = await childCpuSeconds();
    const own = process.cpuUsage();
    for (const args of plan.steps) await runEncode(args, { what: label });
    if (plan.zip) await writeZip(output, plan.zip);
    if (plan.lottie) await writeLottie(output, plan.lottie);
    // hevc_alpha's last step runs in this process (FFmpeg 8 through node-av).
    if (plan.finish?.kind === 'hevc-alpha') await encodeHevcAlpha(plan.finish);
    row.encodeSeconds = (performance.now() - t) / 1000;
    const cpuAfter = await childCpuSeconds();
    const ownCpu = process.cpuUsage(own);
    row.encodeCpuSeconds =
      cpu === null || cpuAfter === null
        ? null
        : cpuAfter - cpu + (ownCpu.user + ownCpu.system) / 1e6;
    row.encodeFps = plan.promise.frames / row.encodeSeconds;
    row.bytes = (await fs.stat(output)).size;
    t = performance.now();
    try {
      row.metadata = await validateOutput({ file: output, plan, mask });
      row.validation = `ok (${plan.promise.profile})`;
    } catch (e) {
      row.validation = `FAILED: ${e instanceof Error ? e.message : String(e)}`;
    }
    row.validateSeconds = (performance.now() - t) / 1000;
  } catch (e) {
    row.validation = `FAILED: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    if (!values.keep) await fs.rm(dir, { recursive: true, force: true });
  }
  rows.push(row);
  print(row);
}

if (values.json) {
  await fs.writeFile(
    values.json,
    JSON.stringify(
      { source: path.basename(source), info, maskFrames, cores: os.cpus().length, rows },
      null,
      2,
    ) + '\n',
  );
  console.log(`saved ${values.json}`);
}
if (!values.keep) await fs.rm(work, { recursive: true, force: true });
else console.log(`files kept in ${work}`);

function print(r: Row) {
  const n = (v: number | null, d: number) => (v === null ? '-' : v.toFixed(d));
  console.log(
    `${r.format.padEnd(28)} ` +
      `${(r.bytes ?? '-').toString().padStart(11)} ` +
      `${n(r.encodeSeconds, 1).padStart(7)} ` +
      `${n(r.encodeFps, 1).padStart(8)} ` +
      `${n(r.encodeCpuSeconds, 1).padStart(7)} ` +
      `${n(r.validateSeconds, 1).padStart(6)}  ${r.validation}`,
  );
}
