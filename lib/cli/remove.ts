import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  OPAQUE_CONTAINERS,
  OUTPUT_FORMATS,
  TRANSPARENT_FORMATS,
  isTransparentFormat,
  type OpaqueContainer,
  type TransparentFormat,
} from '../../engine/formats';
import { formatOf, type Recipe } from '../../engine/media/recipe';
import { API_MODELS, apiModel, DEFAULT_MODEL, isApiModel } from '../../engine/api-models';
import { probeVideo } from '../media/probe';
import { renderOutput } from '../media/render';
import { safeFetchToFile } from '../net/safe-fetch';
import { segmentVideo } from '../segment/mask-video';

const USAGE = `keyout remove <input> -o <output> [--model ${API_MODELS.join('|')}]
              [--format <${TRANSPARENT_FORMATS.join('|')}|mp4>] [--color '#RRGGBB']
              [--background <image/video path or URL>] [--blur background|subject]
              [--threshold 0..1] [--no-smart-sampling]
The output's extension picks the container: .webm, .mov, .gif, .webp, .png transparent; .mp4 on a
colour (green by default); .webm and .mov opaque too with --color, --background or --blur.`;
const MAX_BACKGROUND_BYTES = 500 * 1024 * 1024;

class UsageError extends Error {}

/**
 * `keyout remove`: segments a local video with the same engine and renderer as the service and
 * writes one output file. Returns the exit code; failures print one clear line.
 */
export async function remove(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`keyout remove: ${e.message}\n${USAGE}`);
      return 2;
    }
    console.error(`keyout remove: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        model: { type: 'string', default: DEFAULT_MODEL },
        format: { type: 'string' },
        color: { type: 'string' },
        background: { type: 'string' },
        blur: { type: 'string' },
        threshold: { type: 'string' },
        'no-smart-sampling': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  const input = positionals[0];
  if (!input || positionals.length > 1) throw new UsageError('give exactly one input video');
  if (!v.output) throw new UsageError('-o <output> is required');
  if (!isApiModel(v.model)) throw new UsageError(`--model must be one of ${API_MODELS.join(', ')}`);
  const threshold = v.threshold === undefined ? null : Number(v.threshold);
  if (threshold !== null && !(threshold >= 0 && threshold <= 1))
    throw new UsageError('--threshold must be a number from 0 to 1');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-cli-'));
  try {
    const recipe = await recipeFrom(v, v.output, work);
    if (!fs.existsSync(input)) throw new Error(`input not found: ${input}`);
    const info = await probeVideo(path.resolve(input));
    const mask = path.join(work, 'mask.mkv');
    let shown = -1;
    const seg = await segmentVideo({
      input: path.resolve(input),
      info,
      maskOut: mask,
      model: v.model,
      threshold,
      smartSampling: !v['no-smart-sampling'],
      onProgress: (p) => {
        const pct = Math.floor((100 * p.framesDone) / p.framesTotal);
        if (pct === shown) return;
        shown = pct;
        const eta = p.etaSeconds === null ? '' : `, ${Math.ceil(p.etaSeconds)} s left`;
        process.stderr.write(
          `\rsegmenting ${p.framesDone}/${p.framesTotal} frames (${p.fps.toFixed(1)} fps${eta})   `,
        );
      },
    });
    process.stderr.write(
      `\rsegmented ${seg.framesWritten} frames in ` +
        `${seg.seconds.toFixed(1)} s; rendering…${' '.repeat(20)}\n`,
    );
    const out = await renderOutput({
      source: path.resolve(input),
      info,
      mask,
      recipe,
      outDir: work,
      basename: 'output',
      edgeColour: apiModel(v.model).edgeColour,
    });
    fs.mkdirSync(path.dirname(path.resolve(v.output)), { recursive: true });
    fs.copyFileSync(out.file, v.output);
    console.log(`${v.output} (${out.contentType})`);
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** What an output name makes when neither --format nor a background option says otherwise. */
const transparentByExtension = (ext: string): TransparentFormat | undefined =>
  OUTPUT_FORMATS.find((f) => f.family === 'transparent' && f.cliDefault && f.extension === ext)
    ?.id as TransparentFormat | undefined;

/**
 * CLI flags → the renderer's Recipe (the same shapes the API builds). The output's extension
 * picks the container, and a name that does not match what would be written is refused here,
 * before any work.
 */
async function recipeFrom(
  v: { format?: string; color?: string; background?: string; blur?: string },
  output: string,
  work: string,
): Promise<Recipe> {
  const ext = path.extname(output).slice(1).toLowerCase();
  const chosen = [v.color, v.background, v.blur].filter((x) => x !== undefined).length;
  if (chosen > 1) throw new UsageError('use only one of --color, --background and --blur');
  if (v.format !== undefined && v.format !== 'mp4' && !isTransparentFormat(v.format)) {
    throw new UsageError(`--format must be mp4 or one of ${TRANSPARENT_FORMATS.join(', ')}`);
  }
  const opaque = chosen > 0 || v.format === 'mp4' || (v.format === undefined && ext === 'mp4');
  if (!opaque) {
    const format = (v.format as TransparentFormat | undefined) ?? transparentByExtension(ext);
    if (format === undefined) {
      throw new UsageError(
        ext === 'zip'
          ? 'a .zip output needs --format png_sequence or --format pro_bundle'
          : `cannot tell the format from the name ${path.basename(output)}: ` +
              'end it in .webm, .mov, .mp4, .gif, .webp or .png, or give ' +
              '--format',
      );
    }
    const recipe: Recipe = { kind: 'transparent', format };
    expectExtension(ext, formatOf(recipe).extension, format);
    return recipe;
  }
  if (v.format !== undefined && v.format !== 'mp4') {
    throw new UsageError(
      '--color, --background and --blur make an opaque video; drop --format or use --format mp4',
    );
  }
  if (v.format === 'mp4') expectExtension(ext, 'mp4', 'mp4');
  if (!(OPAQUE_CONTAINERS as readonly string[]).includes(ext)) {
    throw new UsageError(
      `an opaque video is written as .mp4, .webm or .mov, not ${path.basename(output)}`,
    );
  }
  const exportFormat = ext as OpaqueContainer;
  if (v.blur !== undefined) {
    if (v.blur !== 'background' && v.blur !== 'subject')
      throw new UsageError('--blur must be background or subject');
    return { kind: 'blur', blur: { mode: v.blur, intensity: 50, type: 'gaussian' }, exportFormat };
  }
  if (v.background !== undefined) {
    let file = v.background;
    if (/^https?:\/\//i.test(file)) {
      file = path.join(work, 'background');
      await safeFetchToFile(v.background, file, { maxBytes: MAX_BACKGROUND_BYTES });
    } else if (!fs.existsSync(file)) throw new Error(`background not found: ${file}`);
    return {
      kind: 'composition',
      background: { file: path.resolve(file) },
      template: 'full',
      backgroundAudio: false,
      backgroundAudioVolume: 0,
      exportFormat,
    };
  }
  const color = v.color ?? '#00FF00';
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw new UsageError("--color must look like '#RRGGBB'");
  return { kind: 'color', color, exportFormat };
}

function expectExtension(ext: string, wanted: string, format: string): void {
  if (ext !== wanted)
    throw new UsageError(
      `${format} writes a .${wanted} file; name the output so (got ` +
        `${ext ? `.${ext}` : 'no extension'})`,
    );
}
