/**
 * Every sticker format from real clips, with a real segmentation: per format the bytes against
 * the budget, the final frame rate, the attempts the adaptive encoder used, the encode time
 * (wall and CPU: ffmpeg's children plus this process's own, where upng-js quantizes APNGs) and
 * the platform that takes it, and the encode's wall and CPU time as a ratio to the same clip's
 * plain `webm_vp9` cut-out rendered in the same run (the host's speed moves 2-5x between hours).
 * Markdown table on stdout.
 *
 *   npx tsx scripts/bench-stickers.ts [--sources a.mp4,b.mp4] [--segment service-human]
 *        [--formats telegram_video_v1,...] [--json bench-results/stickers.json]
 *
 * Defaults to the juggle and dancer clips of ../shared/testdata. Each render is the service's
 * own (lib/media/render.ts renderOutput: master, attempts, validation, poster).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isApiModel } from '../engine/api-models';
import { outputFormat, STICKER_FORMATS } from '../engine/formats';
import { probeVideo } from '../lib/media/probe';
import { renderOutput } from '../lib/media/render';
import { segmentVideo } from '../lib/segment/mask-video';
import { childCpuSeconds } from './lib-bench/cpu';

/** Wall seconds and CPU seconds (ffmpeg's children plus this process's own) of one render. */
async function timed<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; wall: number; cpuSeconds: number | null }> {
  const t = performance.now();
  const cpu = await childCpuSeconds();
  const own = process.cpuUsage();
  const value = await fn();
  const wall = (performance.now() - t) / 1000;
  const cpuAfter = await childCpuSeconds();
  const ownCpu = process.cpuUsage(own);
  return {
    value,
    wall,
    cpuSeconds:
      cpu === null || cpuAfter === null
        ? null
        : cpuAfter - cpu + (ownCpu.user + ownCpu.system) / 1e6,
  };
}

const VIDEOS = path.resolve('../shared/testdata/videos');
const { values } = parseArgs({
  options: {
    sources: {
      type: 'string',
      default: [
        'sam2_05_juggle_fullbody_1280x720.mp4',
        'liveportrait_s13_dance_fullbody_white_bg_720x1080.mp4',
      ]
        .map((f) => path.join(VIDEOS, f))
        .join(','),
    },
    segment: { type: 'string', default: 'service-human' },
    formats: { type: 'string' },
    json: { type: 'string' },
  },
});
if (!isApiModel(values.segment))
  throw new Error(`--segment must be a model id, not ${values.segment}`);
const formats = values.formats
  ? STICKER_FORMATS.filter((f) => values.formats!.split(',').includes(f))
  : STICKER_FORMATS;
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'keyout-bench-stickers-'));
const results: Record<string, unknown>[] = [];
console.log(
  `${os.cpus().length} cores, load ` +
    `${os.loadavg()[0]!.toFixed(1)}; segmentation ` +
    `${values.segment}\n`,
);

for (const source of values.sources.split(',').map((s) => path.resolve(s))) {
  const info = await probeVideo(source);
  const mask = path.join(work, `${path.parse(source).name}.mask.mkv`);
  await segmentVideo({ input: source, info, maskOut: mask, model: values.segment });
  console.log(
    `### ${path.basename(source)} (${info.width}x${info.height}, ` +
      `${info.fps} fps, ${info.duration.toFixed(2)} s)\n`,
  );
  const base = await timed(() =>
    renderOutput({
      source,
      info,
      mask,
      recipe: { kind: 'transparent', format: 'webm_vp9' },
      outDir: path.join(work, 'out'),
      basename: 'baseline',
    }),
  );
  await fs.rm(base.value.file, { force: true });
  const ratio = (x: number | null, b: number | null) =>
    x === null || !b ? '-' : `${(x / b).toFixed(2)}×`;
  console.log(
    `baseline webm_vp9 of the whole clip: ${base.wall.toFixed(1)} s ` +
      `wall, ${base.cpuSeconds?.toFixed(1) ?? '-'} CPU s\n`,
  );
  console.log(
    '| format | bytes / budget | final fps | attempts | encode s ' +
      '(wall) | CPU s | wall / baseline | CPU / baseline | platform |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const format of formats) {
    const policy = outputFormat(format).sticker!;
    let row: Record<string, unknown>;
    try {
      const {
        value: o,
        wall,
        cpuSeconds,
      } = await timed(() =>
        renderOutput({
          source,
          info,
          mask,
          recipe: { kind: 'transparent', format },
          outDir: path.join(work, 'out'),
          basename: format,
        }),
      );
      const s = o.metadata.sticker!;
      row = {
        source: path.basename(source),
        format,
        bytes: o.metadata.bytes,
        budget: s.budget_bytes,
        finalFps: s.final_fps,
        attempts: s.attempts,
        wall,
        cpuSeconds,
        baseline: { wall: base.wall, cpuSeconds: base.cpuSeconds },
        platform: policy.platform,
      };
      const pct = Math.round((o.metadata.bytes / s.budget_bytes) * 100);
      console.log(
        `| ${format} | ${o.metadata.bytes.toLocaleString('en-US')} / ` +
          `${s.budget_bytes.toLocaleString('en-US')} (${pct} %) | ` +
          `${s.final_fps} | ${s.attempts.length} ` +
          `(${s.attempts.map(attemptLabel).join('; ')}) ` +
          `| ${wall.toFixed(1)} | ` +
          `${cpuSeconds === null ? '-' : cpuSeconds.toFixed(1)} | ` +
          `${ratio(wall, base.wall)} | ` +
          `${ratio(cpuSeconds, base.cpuSeconds)} | ${policy.platform} |`,
      );
      await fs.rm(o.file, { force: true });
    } catch (e) {
      row = {
        source: path.basename(source),
        format,
        error: e instanceof Error ? e.message : String(e),
      };
      console.log(`| ${format} | FAILED: ${String(row.error)} | | | | | | | ${policy.platform} |`);
    }
    results.push(row);
  }
  console.log('');
}
if (values.json)
  await fs.writeFile(
    values.json,
    JSON.stringify({ cores: os.cpus().length, segment: values.segment, results }, null, 2) + '\n',
  );
await fs.rm(work, { recursive: true, force: true });
process.exit(0);

/** One attempt of the ladder: its quality knobs and rate, and what it made. */
function attemptLabel(a: { quality: object; fps: number; bytes: number }): string {
  return `${Object.values(a.quality).join('/')}@${a.fps}: ${Math.round(a.bytes / 1000)} kB`;
}
