/**
 * One bench:jobs row, in a process of its own:
 * `<clip> <config> <mask> <out> [--base … --custom …]` (the last two for a `custom` config). A
 * config segments the clip into `mask` and renders the default output (VP9 WebM with alpha) as
 * the worker does: while segmenting, from the mask as it is written
 * (lib/segment/render-while-segmenting.ts), or for `<tier>@before` once the mask is whole, as
 * jobs ran before. "render only" renders from the ready `mask`; "prepare-mask:<config>" only
 * segments (the ready mask, untimed). A config named by an API model renders with its model's
 * edge colour setting (engine/api-models.ts), a `custom` one with its base's, the rest with the
 * edge colour estimated (renderOutput's default). Prints the output's size, the segmentation's
 * key count and whether the render overlapped it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiModel, isApiModel } from '../../engine/api-models';
import { probeVideo } from '../../lib/media/probe';
import { renderOutput, type RenderedOutput } from '../../lib/media/render';
import { segmentVideoWith } from '../../lib/segment/mask-video';
import { benchConfigs } from './configs';
import { parseArgs } from './frames';
import { RENDER_ONLY } from './job-clips';

const [clip, config, mask, out, ...rest] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  ...string[],
];
/** `--base` and `--custom` for a `custom` config, passed on by bench:jobs. */
const args = parseArgs(rest);
const info = await probeVideo(clip);
const prepareOnly = config.startsWith('prepare-mask:');
const recipe = { kind: 'transparent', format: 'webm_vp9' } as const;
const api = (config === 'custom' && args.get('base')) || config.split(/[@:]/)[0]!;
const edgeColour = isApiModel(api) ? apiModel(api).edgeColour : true;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-one-job-'));
try {
  let keys = 0;
  let rendered: RenderedOutput | null = null;
  if (config !== RENDER_ONLY.name) {
    const [cfg] = benchConfigs([prepareOnly ? config.slice('prepare-mask:'.length) : config], args);
    const overlap = !prepareOnly && !cfg!.before;
    const seg = await segmentVideoWith({
      input: clip,
      info,
      maskOut: mask,
      tier: cfg!.tier,
      manifest: cfg!.manifest,
      threshold: cfg!.threshold,
      render: overlap ? { recipe, edgeColour, outDir: work, basename: 'output' } : undefined,
    });
    keys = seg.inferences;
    rendered = seg.rendered;
  }
  if (!prepareOnly) {
    const during = rendered !== null;
    rendered ??= await renderOutput({
      source: clip,
      info,
      mask,
      edgeColour,
      recipe,
      outDir: work,
      basename: 'output',
    });
    fs.copyFileSync(rendered.file, out);
    console.log(
      `${(fs.statSync(out).size / 2 ** 20).toFixed(1)} MiB ` +
        `webm${keys ? `, ${keys} keys` : ''}, rendered ` +
        `${during ? 'while segmenting' : 'after'}${edgeColour ? ', edge colour' : ''}`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(0);
