/**
 * One bench:jobs row, in a process of its own: `<clip> <config> <mask> <out>`. A config segments
 * the clip into `mask` and renders the default output (VP9 WebM with alpha) from it; "render only"
 * renders from the ready `mask`; "prepare-mask:<config>" only segments (the ready mask, untimed).
 * Prints the output's size and the segmentation's key count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeVideo } from '../../lib/media/probe';
import { renderOutput } from '../../lib/media/render';
import { segmentVideoWith } from '../../lib/segment/mask-video';
import { benchConfigs } from './configs';
import { parseArgs } from './frames';
import { RENDER_ONLY } from './job-clips';

const [clip, config, mask, out] = process.argv.slice(2) as [string, string, string, string];
const info = await probeVideo(clip);
const prepareOnly = config.startsWith('prepare-mask:');
let keys = 0;
if (config !== RENDER_ONLY.name) {
  const [cfg] = benchConfigs(
    [prepareOnly ? config.slice('prepare-mask:'.length) : config],
    parseArgs([]),
  );
  const seg = await segmentVideoWith({
    input: clip,
    info,
    maskOut: mask,
    tier: cfg!.tier,
    manifest: cfg!.manifest,
    threshold: cfg!.threshold,
  });
  keys = seg.inferences;
}
if (!prepareOnly) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-one-job-'));
  try {
    const rendered = await renderOutput({
      source: clip,
      info,
      mask,
      recipe: { kind: 'transparent', format: 'webm_vp9' },
      outDir: work,
      basename: 'output',
    });
    fs.copyFileSync(rendered.file, out);
    console.log(
      `${(fs.statSync(out).size / 2 ** 20).toFixed(1)} MiB webm${keys ? `, ${keys} keys` : ''}`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
process.exit(0);
