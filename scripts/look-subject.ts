/**
 * One clip through one tier's subject stage, both ways of choosing (key by key, and over the
 * shot's tracks), cut out over a checkerboard side by side: what the choice keeps.
 *
 *   npx tsx scripts/look-subject.ts <video> <out-dir> [--tier service-original] [--frames 120]
 *   [--every 15] [--cache]
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { probeVideo } from '../lib/media/probe';
import { serverRuntime } from '../lib/inference/server-runtime';
import { segmentVideoWith } from '../lib/segment/mask-video';
import { cachedRuntime } from './lib-bench/cached-runtime';
import { benchConfigs } from './lib-bench/configs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tier: { type: 'string', default: 'service-original' },
    frames: { type: 'string', default: '120' },
    every: { type: 'string', default: '15' },
    cache: { type: 'boolean', default: false },
  },
});
const [video, outDir] = positionals;
if (!video || !outDir) {
  console.error(
    'usage: look-subject.ts <video> <out-dir> [--tier ' +
      'service-original] [--frames 120] [--every 15] [--cache]',
  );
  process.exit(2);
}
const info = await probeVideo(video);
const runtime = values.cache
  ? cachedRuntime(await serverRuntime(), path.resolve('.bench/model-cache'))
  : await serverRuntime();
const name = path.basename(video, path.extname(video));
for (const cfg of benchConfigs([`${values.tier}:per-key`, values.tier], new Map())) {
  const maskOut = path.join(outDir, `${name}-${cfg.name.replace(':', '-')}.mkv`);
  await segmentVideoWith({
    input: video,
    info,
    maskOut,
    tier: cfg.tier,
    manifest: cfg.manifest,
    threshold: null,
    maxFrames: Number(values.frames),
    runtime,
  });
  const png = maskOut.replace(/\.mkv$/, '.png');
  execFileSync('npx', [
    'tsx',
    'scripts/look-mattes.ts',
    video,
    maskOut,
    png,
    '--every',
    values.every,
    '--count',
    String(Math.ceil(Number(values.frames) / Number(values.every))),
  ]);
  console.log(png);
}
process.exit(0);
